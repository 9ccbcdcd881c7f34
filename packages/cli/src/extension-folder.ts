/**
 * Where the built extension is, for "Load unpacked": the installed package carries it beside the
 * bundles (dist/extension/, copied in by packages/cli/build.mjs); a clone has it there too once built,
 * and otherwise where packages/extension/build.mjs writes it (packages/extension/dist/unpacked/).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { besideCli } from './runtime';

/** The folder name of the extension beside the bundles, in dist/ of the package. */
export const EXTENSION_DIR = 'extension';

/** The candidates in order, for the bundles in `dist` (the CLI's own folder by default). */
export function extensionFolderCandidates(dist: string = dirname(besideCli('bproxy.mjs'))): string[] {
  return [join(dist, EXTENSION_DIR), join(dist, '..', '..', 'extension', 'dist', 'unpacked')];
}

/** The first candidate holding a manifest.json, or null when no built extension is found. */
export function extensionFolder(dist?: string): string | null {
  return extensionFolderCandidates(dist).find((folder) => existsSync(join(folder, 'manifest.json'))) ?? null;
}
