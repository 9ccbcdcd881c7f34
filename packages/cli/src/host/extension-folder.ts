/**
 * Where the built extension is, for "Load unpacked": inside the installed package (dist/extension,
 * beside the CLI bundle; in the native host's copy, a link to the package's), else — the CLI running from a clone — where the build puts it
 * (packages/extension/dist/unpacked). A folder counts only when it holds a manifest.json.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { besideCli } from '../runtime';

/** The folders looked at, in order: the package's own copy first. */
export function extensionFolderCandidates(cliBundle: string = besideCli('bproxy.mjs')): readonly string[] {
  const dist = dirname(cliBundle);
  return [join(dist, 'extension'), resolve(dist, '..', '..', 'extension', 'dist', 'unpacked')];
}

/**
 * The built extension's folder, or null when none of the candidates holds one. Its real path: run from
 * the native host's copy (BPROXY_HOME/host/<version>/, in the Terminal), `extension` there is a link
 * to the installing package's folder, which is the one to load (the copy goes at the next upgrade).
 */
export function findExtensionFolder(
  candidates: readonly string[] = extensionFolderCandidates(),
): string | null {
  const found = candidates.find((dir) => existsSync(join(dir, 'manifest.json')));
  return found === undefined ? null : realpathSync(found);
}
