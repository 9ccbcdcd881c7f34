// Removals of the threat model's lines on page text marked as data: the untrusted-data fence of the
// MCP, agent and CLI replies, and the snapshot's flags for text aimed at the model.

const FENCE = 'packages/tools/test/untrusted.test.ts › the untrusted-data fence';
const FLAGS = 'packages/page/test/dom/page-flags.browser.test.ts › snapshot flags';
const SUITE = 'tests/kit/suites/untrusted.ts';
const BOTH_DRIVERS = ['tests/e2e/untrusted-cdp.test.ts', 'tests/e2e/untrusted-extension.test.ts'];
const SNAPSHOT_FLAGS = `${SUITE} › flags hidden controls, a stuffed label and text aimed at an AI in the snapshot, and names page-text fields in the JSON`;
const MCP_FENCE = `${SUITE} › fences page text in MCP replies with the nonce of the instructions, and a fake closing line in the page cannot end it`;
const ARIA_HIDDEN_PAGE =
  'packages/page/test/dom/aria-hidden-words.browser.test.ts › aria-hidden mismatches › flags a line whose shown words are aria-hidden and left out of its name, and only those';
const ARIA_HIDDEN_SUITE = `${SUITE} › flags a control, link or heading whose shown words are aria-hidden and left out of its name, and leaves aria-hidden="false" hidden text out`;
const PAGE_FLAGS = `${FLAGS} › flags hidden controls, a stuffed label and text aimed at an AI, and leaves visible controls unflagged`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'untrusted-aria-hidden-flag',
    protects: 'a line whose words people see are aria-hidden and missing from its name is flagged',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: "    return shown !== '' && leftOutOf(line, shown) ? shown : '';",
        replace: "    return '';",
      },
    ],
    kills: [ARIA_HIDDEN_PAGE, ARIA_HIDDEN_SUITE],
    run: BOTH_DRIVERS,
    build: true,
  },
  {
    id: 'untrusted-aria-hidden-aimed',
    protects: 'the aria-hidden words a line shows are read for wording aimed at an AI, like its name',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: "    return flags + aiFlag(words === '' ? shown : `${shown}\\n${words}`);",
        replace: '    return flags + aiFlag(shown);',
      },
    ],
    kills: [ARIA_HIDDEN_PAGE],
  },
  {
    id: 'untrusted-aria-hidden-heading',
    protects: 'a heading named by nothing people see keeps its line with the words shown',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: "    if (name === '' && hiddenWords === '' && this.lines.length === line + 1) this.lines.pop();",
        replace: "    if (name === '' && this.lines.length === line + 1) this.lines.pop();",
      },
    ],
    kills: [ARIA_HIDDEN_PAGE],
  },
  {
    id: 'untrusted-fence',
    protects: 'page text is fenced between two lines carrying the per-process nonce',
    edits: [
      {
        file: 'packages/tools/src/untrusted.ts',
        find: '  return `${open}\\n${safe}\\n${UNTRUSTED_CLOSE}`;',
        replace: '  return safe;',
      },
    ],
    kills: [
      `${FENCE} › puts page text between one opening and one closing line carrying the nonce, with an optional source`,
      'packages/agent/test/turns.test.ts › a turn with the %s streaming format › gives the model the page text of a reply inside the untrusted-data fence, its own words outside',
      MCP_FENCE,
    ],
    run: BOTH_DRIVERS,
    build: true,
  },
  {
    id: 'untrusted-fence-echo',
    protects: "an echo of the fence's own markers in page text is taken out",
    edits: [
      {
        file: 'packages/tools/src/untrusted.ts',
        find: '  const safe = text.split(UNTRUSTED_CLOSE).join(REMOVED).split(UNTRUSTED_OPEN).join(REMOVED);',
        replace: '  const safe = text;',
      },
    ],
    kills: [
      `${FENCE} › cannot be closed by page text: an echo of the real markers is taken out, a guessed nonce closes nothing`,
    ],
  },
  {
    id: 'untrusted-mcp-reply',
    protects: 'MCP replies hold their page text inside the fence',
    edits: [
      {
        file: 'packages/tools/src/replies.ts',
        find: "  return lines(parts.lead ?? '', fenceUntrusted(parts.page ?? ''), parts.tail ?? '');",
        replace: "  return lines(parts.lead ?? '', parts.page ?? '', parts.tail ?? '');",
      },
    ],
    kills: [MCP_FENCE],
    run: BOTH_DRIVERS,
    build: true,
  },
  {
    id: 'untrusted-cli-fields',
    protects: "the CLI's JSON names the fields that hold page text, and --pretty fences it",
    edits: [
      {
        file: 'packages/cli/src/run-action.ts',
        find: '  return fields.length === 0 ? data : { untrusted: fields, ...data };',
        replace: '  return fields.length === 0 ? data : data;',
      },
    ],
    kills: [SNAPSHOT_FLAGS],
    run: BOTH_DRIVERS,
    build: true,
  },
  {
    id: 'flag-hidden-control',
    protects: 'a control or link people cannot see is flagged on its line',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: '      if (reason !== null) flags += ` ${hiddenFlag(reason)}`;',
        replace: '      if (reason === undefined) flags += ` ${hiddenFlag(reason)}`;',
      },
    ],
    kills: [PAGE_FLAGS, SNAPSHOT_FLAGS],
    run: BOTH_DRIVERS,
    build: true,
  },
  {
    id: 'flag-long-label',
    protects: 'a stuffed aria-label is flagged',
    edits: [
      {
        file: 'packages/page/src/render/outline.ts',
        find: "    if ((el.getAttribute('aria-label') ?? '').length > LONG_LABEL) flags += ` ${hiddenFlag('long label')}`;",
        replace:
          "    if ((el.getAttribute('aria-label') ?? '').length > Infinity) flags += ` ${hiddenFlag('long label')}`;",
      },
    ],
    kills: [PAGE_FLAGS, SNAPSHOT_FLAGS],
    run: BOTH_DRIVERS,
    build: true,
  },
  {
    id: 'flag-aimed-at-ai',
    protects: 'text that addresses an AI assistant is flagged',
    edits: [
      {
        file: 'packages/page/src/dom/page-flags.ts',
        find: "  return aimedAtAi(text) ? ` ${FLAG_AIMED_AT_AI}` : '';",
        replace: "  return aimedAtAi(text) && false ? ` ${FLAG_AIMED_AT_AI}` : '';",
      },
    ],
    kills: [
      PAGE_FLAGS,
      `${FLAGS} › flags a line of text that addresses an AI assistant in text too`,
      SNAPSHOT_FLAGS,
    ],
    run: BOTH_DRIVERS,
    build: true,
  },
];
