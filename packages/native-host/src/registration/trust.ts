/**
 * Whether others can change what the browser runs as the user: the launcher, the Node binary and the
 * host bundle it executes. Anyone who can write one of these files, or any folder on the way to it,
 * can replace it and run code as the user the next time a browser starts the host. So every component
 * of the path is looked at, from the root down — and through every symbolic link, whose own owner
 * counts too (its mode means nothing) — and each one must be owned by the user or by root; folders
 * must not be writable by group or others unless the sticky bit is set (as on /tmp: others may add
 * names there but not replace ours), and the file itself not writable by group or others at all —
 * group write counting only when someone else can be in the group (see isPrivateGroup).
 *
 * Packages the host loads from node_modules (the model SDKs, the PTY addon) are not walked inside:
 * they are trusted as npm installed them. The host's copy reaches them through links in its own
 * node_modules (copy.ts): each link, and every folder on the way to the package it names, is walked.
 *
 * POSIX only: on Windows, files carry ACLs that modes do not describe, and nothing is reported.
 */
import { existsSync, lstatSync, readFileSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, isAbsolute, join, parse, resolve, sep } from 'node:path';

/** Far more links than any real installation chains; a loop ends here instead of spinning. */
const MAX_LINKS = 40;

export interface TrustOptions {
  /** Our uid; default process.getuid(). Root (0) is trusted as an owner whatever it is. */
  readonly uid?: number;
  /** Default the running platform; 'win32' reports nothing. */
  readonly platform?: NodeJS.Platform;
  /** Whether only the user can be in a group; default isPrivateGroup (tests: a stand-in). */
  readonly privateGroup?: (gid: number) => boolean;
}

/** The names of a path, without empty ones (`a//b`, a trailing slash). */
const words = (path: string): string[] => path.split(sep).filter((word) => word !== '');

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function componentProblem(
  path: string,
  stats: Stats,
  uid: number,
  last: boolean,
  privateGroup: (gid: number) => boolean,
): string | null {
  if (stats.uid !== uid && stats.uid !== 0)
    return `${path} is owned by uid ${stats.uid}, neither you (uid ${uid}) nor root, so its owner can change what the browser runs as you (fix: move it somewhere of yours, or chown it)`;
  if (stats.isSymbolicLink()) return null;
  // Group write is harmless when the group is the user's alone (see isPrivateGroup).
  const writers = stats.mode & (privateGroup(stats.gid) ? 0o002 : 0o022);
  if (writers === 0) return null;
  if (stats.isDirectory() && !last && (stats.mode & 0o1000) !== 0) return null;
  const what = stats.isDirectory() ? 'folder' : 'file';
  return `the ${what} ${path} is writable by group or others (mode ${octal(stats.mode)}), so they can change what the browser runs as you (fix: chmod go-w ${path})`;
}

const fields = (file: string): string[][] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(':'));

/**
 * Whether nobody but the user can be in group `gid`: a "user private group" — the user's own primary
 * group, named after them, with no other member and no other user's primary group. Debian and Ubuntu
 * give every user one, with a umask of 002, so their files are group-writable by that group alone.
 * Read from /etc/group and /etc/passwd; anything unclear (a group from a directory service, a file
 * that cannot be read) counts as shared.
 */
export function isPrivateGroup(gid: number, uid: number): boolean {
  try {
    if (typeof process.getgid !== 'function' || process.getgid() !== gid) return false;
    const user = userInfo().username;
    const groups = fields('/etc/group').filter((group) => group[2] === String(gid));
    if (groups.length === 0) return false;
    for (const [name, , , members = ''] of groups) {
      if (name !== user) return false;
      if (members.split(',').some((member) => member !== '' && member !== user)) return false;
    }
    return !fields('/etc/passwd').some((entry) => entry[3] === String(gid) && entry[2] !== String(uid));
  } catch {
    return false;
  }
}

/**
 * One sentence per component of `path` (the folders above it, each symbolic link on the way, and
 * what it finally names) that someone other than the user or root could change; empty when none.
 * A component that does not exist ends the walk: existence is checked, and worded, by the caller.
 */
export function trustProblems(path: string, options: TrustOptions = {}): string[] {
  const platform = options.platform ?? process.platform;
  const uid = options.uid ?? (typeof process.getuid === 'function' ? process.getuid() : null);
  if (platform === 'win32' || uid === null) return [];
  const privateGroup = options.privateGroup ?? ((gid: number) => isPrivateGroup(gid, uid));
  const problems: string[] = [];
  const seen = new Set<string>();
  const report = (problem: string | null) => {
    if (problem !== null && !seen.has(problem)) {
      seen.add(problem);
      problems.push(problem);
    }
  };
  const absolute = isAbsolute(path) ? path : resolve(path);
  const { root } = parse(absolute);
  const top = lstatOrNull(root);
  if (top === null) return problems;
  // The words of the path, taken one by one as the kernel does: `..` steps out of the folder reached
  // so far (all links in it already followed), and a link puts its target's words in front of the rest.
  let rest = words(absolute.slice(root.length));
  report(componentProblem(root, top, uid, rest.length === 0, privateGroup));
  let current = root;
  let links = 0;
  while (rest.length > 0) {
    const [name = '', ...after] = rest;
    rest = after;
    if (name === '.') continue;
    if (name === '..') {
      current = dirname(current);
      continue;
    }
    const next = join(current, name);
    const stats = lstatOrNull(next);
    if (stats === null) break;
    report(componentProblem(next, stats, uid, rest.length === 0, privateGroup));
    if (!stats.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) {
      report(`${path} goes through more than ${MAX_LINKS} symbolic links`);
      break;
    }
    const target = readlinkSync(next);
    if (isAbsolute(target)) current = parse(target).root;
    rest = [...words(isAbsolute(target) ? target.slice(parse(target).root.length) : target), ...rest];
  }
  return problems;
}

/** What the host bundle runs from its own folder: the agent it imports, the daemon it starts, the CLI of its terminals. */
const BESIDE_BUNDLE = ['agent-runtime.mjs', 'daemon.mjs', 'bproxy.mjs'];
/** The folder of the agent's chunks (one per model provider), which agent-runtime.mjs imports from. */
const AGENT_CHUNKS = 'agent-chunks';

/** The agent's chunk files beside `bundle` (none when the folder does not exist). */
function agentChunks(bundle: string): string[] {
  const folder = join(dirname(bundle), AGENT_CHUNKS);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .map((name) => join(folder, name));
}

/** The entries of `dir` (empty when it is not a folder). */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The packages in `bundle`'s own node_modules (the host copy's links): `name` and `@scope/name`. */
function packagesBeside(bundle: string): string[] {
  const modules = join(dirname(bundle), 'node_modules');
  return entries(modules).flatMap((name) =>
    name.startsWith('@')
      ? entries(join(modules, name)).map((inner) => join(modules, name, inner))
      : [join(modules, name)],
  );
}

/**
 * trustProblems of everything a launcher running `bundle` on `node` executes — the two, the files
 * the bundle loads from beside it (those that exist), the agent's chunks in agent-chunks/ included,
 * and the packages its own node_modules links to — each sentence once.
 */
export function launchedTrustProblems(node: string, bundle: string, options: TrustOptions = {}): string[] {
  const files = [
    node,
    bundle,
    ...BESIDE_BUNDLE.map((name) => join(dirname(bundle), name)),
    ...agentChunks(bundle),
    ...packagesBeside(bundle),
  ];
  return [...new Set(files.flatMap((file) => trustProblems(file, options)))];
}
