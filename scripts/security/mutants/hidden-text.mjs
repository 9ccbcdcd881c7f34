// Removals of the threat model's section 5 lines on text a person cannot see: left out of reads, and
// counted.

const HIDDEN = 'packages/page/test/hidden-text.browser.test.ts › hidden text';
const BOTH_DRIVERS = ['tests/e2e/drivers-cdp.test.ts', 'tests/e2e/drivers-extension.test.ts'];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'text-leaves-hidden-out',
    protects: 'text reads leave out what a person cannot see',
    edits: [
      {
        file: 'packages/page/src/render/visible-text.ts',
        find: '      if (unseen !== undefined && !unseen.shows(node as Text)) return;',
        replace: '      if (unseen !== undefined && !unseen.shows(node as Text) && unseen === null) return;',
      },
    ],
    kills: [
      `${HIDDEN} › leaves text hidden by each trick out of text, keeps every visible sentence and counts the hidden runs`,
    ],
  },
  {
    id: 'snapshot-leaves-hidden-out',
    protects: 'snapshot text runs leave out what a person cannot see',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: "      if (mode === 'full' && textVisible && this.unseen.shows(node as Text))",
        replace: "      if (mode === 'full' && textVisible && (this.unseen.shows(node as Text) || true))",
      },
    ],
    kills: [
      `${HIDDEN} › leaves hidden text and headings out of the snapshot, counts them, and names a button by its screen-reader label`,
    ],
  },
  {
    id: 'heading-hidden-words',
    protects: 'a heading with hidden words is named by the words people see',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: '    const name = dropped ? seen : nameOf(el, 100);',
        replace: '    const name = dropped && seen === null ? seen : nameOf(el, 100);',
      },
    ],
    kills: [
      `${HIDDEN} › leaves hidden text and headings out of the snapshot, counts them, and names a button by its screen-reader label`,
    ],
  },
  {
    id: 'inspect-leaves-hidden-out',
    protects: 'what inspect says an element holds leaves hidden text out',
    edits: [
      {
        file: 'packages/page/src/actions/inspect.ts',
        find: '    text: visibleText(el, new FrameReport(), new UnseenText()).slice(0, TEXT_MAX),',
        replace: '    text: visibleText(el, new FrameReport()).slice(0, TEXT_MAX),',
      },
    ],
    kills: [`${HIDDEN} › leaves hidden text out of what inspect says an element holds`],
  },
  {
    id: 'hit-test-cap',
    protects: 'one read spends at most 400 hit tests on covered text',
    edits: [
      {
        file: 'packages/page/src/dom/unseen.ts',
        find: 'export const MAX_HIT_TESTS = 400;',
        replace: 'export const MAX_HIT_TESTS = 1e9;',
      },
    ],
    kills: [`${HIDDEN} › bounds the hit tests one read spends on covered text`],
  },
  {
    id: 'hidden-text-both-drivers',
    protects: 'both drivers leave hidden text out and count it',
    build: true,
    run: BOTH_DRIVERS,
    edits: [
      {
        file: 'packages/page/src/dom/unseen.ts',
        find: '    const hidden = this.reason(text) !== null;',
        replace: '    const hidden = this.reason(text) === undefined;',
      },
    ],
    kills: [
      'tests/kit/suites/actions.ts › leaves text a person cannot see out of text and snapshot, and says how many runs it left out',
    ],
  },
  {
    id: 'hidden-text-said',
    protects: 'the MCP reply says how many runs of hidden text a read left out',
    edits: [
      {
        file: 'packages/tools/src/replies.ts',
        find: "  if (blocks === undefined) return '';",
        replace: "  if (blocks !== null) return '';",
      },
    ],
    kills: [
      'packages/tools/test/tools.test.ts › MCP success replies › says in one short line how many runs of hidden text a read left out, and nothing when none',
    ],
  },
];
