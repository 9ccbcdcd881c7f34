/**
 * The host's own copy, in BPROXY_HOME/host/<version>/: the host bundle and the bundles it runs from
 * beside itself (every `*.mjs` of the folder it was installed from — the agent, the daemon it starts,
 * the CLI of its terminals and the bundles that CLI loads) and the agent's chunks (agent-chunks/, one
 * per model provider, which agent-runtime.mjs imports from), so that the launcher never points into an
 * npx cache or a clone that may move or be upgraded under it. The packages the bundles leave out (the
 * PTY's native addon, the optional model SDKs: HOST_EXTERNALS) cannot be copied sensibly — a native addon and
 * SDKs of over 100 MB — so each one found where Node would find it from the installing bundle is a
 * symbolic link, BPROXY_HOME/host/<version>/node_modules/<name> → its absolute folder, recorded in
 * install.json: Node resolves the copy's imports through it exactly as it did from the installing
 * package. One that is missing is not linked (the host serves everything else and names what is
 * missing when that feature is used). Files are 0644 in 0700 folders; a symlink planted where a file
 * goes is replaced, never followed (writeFileAtomic).
 */
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmdirSync,
  symlinkSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureFolder, removeFile, writeFileAtomic } from './files';

/**
 * What the host's bundles import from node_modules: packages/cli/build.mjs's EXTERNALS (the PTY addon,
 * a dependency, and the model SDKs, optional peers); copy.test.ts checks the two lists agree.
 */
export const HOST_EXTERNALS = ['@lydell/node-pty', '@anthropic-ai/sdk', 'openai', '@github/copilot-sdk'];

/** A product version as a folder name: digits and dots, an optional pre-release; nothing that walks. */
const VERSION_FOLDER = /^\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?$/;

export interface HostCopy {
  /** BPROXY_HOME/host/<version>. */
  readonly dir: string;
  readonly version: string;
  /** The files written into dir (names). */
  readonly files: readonly string[];
  /** The links written into dir/node_modules: package name → the absolute folder it names. */
  readonly modules: readonly { readonly name: string; readonly target: string }[];
  /**
   * The link dir/extension → the installing package's built extension (absolute), so that `bproxy
   * setup` and `bproxy extension path` run from the copy (in the Terminal) find the folder to load;
   * absent when the installing package had none.
   */
  readonly extension?: string;
}

/** The link to the packaged extension in the copy. */
export const EXTENSION_LINK = 'extension';

/**
 * The built extension beside the installing bundles, as the CLI looks for it (dist/extension in the
 * package, or a clone's packages/extension/dist/unpacked), resolved to its real folder: a copy
 * installing itself again follows its own link to the package's.
 */
export function findExtensionBeside(source: string): string | null {
  for (const candidate of [
    join(source, EXTENSION_LINK),
    join(source, '..', '..', 'extension', 'dist', 'unpacked'),
  ])
    if (existsSync(join(candidate, 'manifest.json'))) return realpathSync(candidate);
  return null;
}

export function copyFolder(hostDir: string, version: string): string {
  if (!VERSION_FOLDER.test(version) || version.includes('..'))
    throw new Error(`"${version}" is not a version the host's folder can be named after`);
  return join(hostDir, version);
}

/** Where Node finds package `name` from a module in `from`: the first node_modules/<name> walking up. */
export function findPackage(from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', ...name.split('/'));
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The folder of the agent's chunks beside the bundles, copied with them. */
export const AGENT_CHUNKS = 'agent-chunks';

/** The `*.mjs` files directly in `dir` (none when it is not a folder). */
function bundlesIn(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.mjs'))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
  return names.sort();
}

/**
 * The files to copy, as names relative to the bundle's folder: the host bundle first, then every other
 * `*.mjs` beside it, then the agent's chunks as `agent-chunks/<name>`.
 */
function bundleFiles(bundle: string): string[] {
  const others = bundlesIn(dirname(bundle)).filter((name) => name !== basename(bundle));
  const chunks = bundlesIn(join(dirname(bundle), AGENT_CHUNKS)).map((name) => `${AGENT_CHUNKS}/${name}`);
  return [basename(bundle), ...others, ...chunks];
}

/** A recorded file name the copy may hold: a plain name, or a plain name inside agent-chunks/. */
function copyFileName(name: string): boolean {
  const words = name.split('/');
  const plain = (word: string | undefined) =>
    word !== undefined && /^[\w@][\w.-]*$/.test(word) && word !== '..';
  if (words.length === 1) return plain(words[0]);
  return words.length === 2 && words[0] === AGENT_CHUNKS && plain(words[1]);
}

/** A symlink at `path` naming `target`, replacing whatever link was there (a new name, then renamed). */
function placeLink(path: string, target: string): void {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  symlinkSync(target, temp, 'dir');
  renameSync(temp, path);
}

/**
 * Writes the copy of `bundle`'s folder into `dir`. The externals are looked up from the installing
 * bundle's folder (a copy installing itself again finds its own links and follows them to the
 * packages), before anything is written.
 */
export function writeHostCopy(bundle: string, dir: string, version: string): HostCopy {
  const source = dirname(bundle);
  const files = bundleFiles(bundle);
  const texts = files.map((name) => readFileSync(join(source, ...name.split('/'))));
  const modules = HOST_EXTERNALS.flatMap((name) => {
    const target = findPackage(source, name);
    return target === null ? [] : [{ name, target }];
  });
  const extension = findExtensionBeside(source);
  ensureFolder(dirname(dir), 0o700);
  ensureFolder(dir, 0o700);
  if (files.some((name) => name.startsWith(`${AGENT_CHUNKS}/`))) ensureFolder(join(dir, AGENT_CHUNKS), 0o700);
  files.forEach((name, index) => writeFileAtomic(join(dir, ...name.split('/')), texts[index] ?? '', 0o644));
  for (const { name, target } of modules) {
    const link = join(dir, 'node_modules', ...name.split('/'));
    ensureFolder(dirname(link), 0o700);
    placeLink(link, target);
  }
  if (extension !== null) placeLink(join(dir, EXTENSION_LINK), extension);
  return { dir, version, files, modules, ...(extension === null ? {} : { extension }) };
}

function removeEmptyFolder(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (something not ours is there) or already gone
  }
}

/**
 * Removes what writeHostCopy wrote, as the record names it — only those names, inside `hostDir`, each a
 * file or a link as written — then the folders it made when they are left empty. `keep` (the copy just
 * written into the same folder) names what stays: a reinstall of the same version drops only the files
 * and links the new copy no longer has (an older build's agent chunks).
 */
export function removeHostCopy(copy: HostCopy, hostDir: string, keep?: HostCopy): string[] {
  if (dirname(copy.dir) !== hostDir) return [];
  const keptFiles = new Set(keep?.dir === copy.dir ? keep.files : []);
  const keptModules = new Set(keep?.dir === copy.dir ? keep.modules.map((module) => module.name) : []);
  const removed: string[] = [];
  // A record edited by hand names nothing outside the copy: plain names, scoped package names.
  const safe = (name: string) => name.split('/').every((word) => /^[@\w][\w.-]*$/.test(word));
  for (const name of copy.files) {
    if (!copyFileName(name) || keptFiles.has(name)) continue;
    const path = join(copy.dir, ...name.split('/'));
    if (removeFile(path)) removed.push(path);
  }
  removeEmptyFolder(join(copy.dir, AGENT_CHUNKS));
  for (const { name } of copy.modules) {
    if (!safe(name) || keptModules.has(name)) continue;
    const link = join(copy.dir, 'node_modules', ...name.split('/'));
    if (removeLink(link)) removed.push(link);
    if (name.includes('/')) removeEmptyFolder(dirname(link));
  }
  removeEmptyFolder(join(copy.dir, 'node_modules'));
  // The extension link, when recorded and still a link (never a folder of someone else's).
  if (copy.extension !== undefined && (keep?.dir !== copy.dir || keep.extension === undefined)) {
    const link = join(copy.dir, EXTENSION_LINK);
    if (removeLink(link)) removed.push(link);
  }
  removeEmptyFolder(copy.dir);
  return removed;
}

/** Removes `path` when it is a symbolic link (never a file or folder put there by someone else); true when it did. */
function removeLink(path: string): boolean {
  let isLink = false;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    isLink = false;
  }
  return isLink && removeFile(path);
}
