/**
 * The host's own copy, in BPROXY_HOME/host/<version>/: the host bundle and the bundles it runs from
 * beside itself (every `*.mjs` of the folder it was installed from — the agent, the daemon it starts,
 * the CLI of its terminals and the bundles that CLI loads), so that the launcher never points into an
 * npx cache or a clone that may move or be upgraded under it. The packages the bundles leave out (the
 * PTY's native addon, the model SDKs: HOST_EXTERNALS) cannot be copied sensibly — a native addon and
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

/** What the host's bundles import from node_modules (the `external` lists of packages/cli/build.mjs). */
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

/** The bundles to copy: the host bundle first, then every other `*.mjs` beside it. */
function bundleFiles(bundle: string): string[] {
  const others = readdirSync(dirname(bundle))
    .filter((name) => name.endsWith('.mjs') && name !== basename(bundle))
    .sort();
  return [basename(bundle), ...others];
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
  const texts = files.map((name) => readFileSync(join(source, name)));
  const modules = HOST_EXTERNALS.flatMap((name) => {
    const target = findPackage(source, name);
    return target === null ? [] : [{ name, target }];
  });
  ensureFolder(dirname(dir), 0o700);
  ensureFolder(dir, 0o700);
  files.forEach((name, index) => writeFileAtomic(join(dir, name), texts[index] ?? '', 0o644));
  for (const { name, target } of modules) {
    const link = join(dir, 'node_modules', ...name.split('/'));
    ensureFolder(dirname(link), 0o700);
    placeLink(link, target);
  }
  return { dir, version, files, modules };
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
 * file or a link as written — then the folders it made when they are left empty.
 */
export function removeHostCopy(copy: HostCopy, hostDir: string): string[] {
  if (dirname(copy.dir) !== hostDir) return [];
  const removed: string[] = [];
  // A record edited by hand names nothing outside the copy: plain names, scoped package names.
  const safe = (name: string) => name.split('/').every((word) => /^[@\w][\w.-]*$/.test(word));
  for (const name of copy.files) {
    if (!safe(name) || name.includes('/')) continue;
    const path = join(copy.dir, name);
    if (removeFile(path)) removed.push(path);
  }
  for (const { name } of copy.modules) {
    if (!safe(name)) continue;
    const link = join(copy.dir, 'node_modules', ...name.split('/'));
    let isLink = false;
    try {
      isLink = lstatSync(link).isSymbolicLink();
    } catch {
      isLink = false;
    }
    if (isLink && removeFile(link)) removed.push(link);
    if (name.includes('/')) removeEmptyFolder(dirname(link));
  }
  removeEmptyFolder(join(copy.dir, 'node_modules'));
  removeEmptyFolder(copy.dir);
  return removed;
}
