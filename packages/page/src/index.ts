/**
 * @bproxy/page for Node-side drivers: the page API contract and where the built bundle lives. The
 * bundle itself (dist/page.js, built from src/inject.ts) is what gets injected into pages.
 */
export * from './api';
export { PAGE_SCRIPT_VERSION } from './version';
export { pointerPath, type PathPoint } from './input/pointer-path';
export { postFrameProbe } from './frames/post-probe';

/** URL of the built bundle; fs.readFile accepts it directly. Run `node scripts/build.mjs` first. */
export function pageBundleUrl(): URL {
  return new URL('../dist/page.js', import.meta.url);
}

/** Filesystem path of the built bundle (POSIX; on Windows use pageBundleUrl with fileURLToPath). */
export function pageBundlePath(): string {
  return decodeURIComponent(pageBundleUrl().pathname);
}
