// Removals of the threat model's section 5, "Cross-origin frames": what reads that enter frames of
// other origins may read, and how a frame's handles end.

const SUITE = ['tests/e2e/frames-cdp.test.ts', 'tests/e2e/frames-extension.test.ts'];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'frame-shown-only',
    protects: 'a cross-origin frame a person cannot see is not read',
    edits: [
      {
        file: 'packages/page/src/dom/flat-tree.ts',
        find: 'export function frameShown(frame: Element): boolean {\n',
        replace:
          'export function frameShown(frame: Element): boolean {\n  if (frame.isConnected) return true;\n',
      },
    ],
    kills: [
      'packages/page/test/reads.browser.test.ts › text › leaves a cross-origin frame a person cannot see to no driver: tiny, transparent, hidden or off the page',
    ],
  },
  {
    id: 'frame-web-pages-only',
    protects: 'a frame that is not a web page (another extension, an error or browser page) is never read',
    edits: [
      {
        file: 'packages/driver/src/frames/frame-reads.ts',
        find: 'export function webPage(url: string): string | null {\n',
        replace: "export function webPage(url: string): string | null {\n  if (url !== '') return null;\n",
      },
    ],
    kills: [
      'packages/driver/test/frames/frame-reads.test.ts › reads with cross-origin frames › never reads another extension’s frame, a browser page or an error page, and names each with why',
    ],
  },
  {
    id: 'frame-handles-stale',
    protects: "a frame's handles go stale when the frame navigates",
    build: true,
    edits: [
      {
        file: 'packages/page/src/dom/resolve.ts',
        find: '    if (el) return el;\n    // The node the ref named is gone',
        replace:
          "    if (el) return el;\n    if (!registry.issued(target.ref) && target.selector !== undefined) {\n      const found = querySelectorDeep(target.selector);\n      if (found) return found;\n      throw new PageError('ELEMENT_NOT_FOUND', 'no element');\n    }\n    // The node the ref named is gone",
      },
    ],
    run: SUITE,
    kills: [
      'tests/kit/suites/frames.ts › fills and submits the card form by handles only, the payment site receives it, and the frame’s handles then go stale',
    ],
  },
];
