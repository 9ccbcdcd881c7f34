// Removals of the threat model's "Approvals": the page layer's recognition (card fields, masked values,
// names, prose), the class decision, the exactly-once retry, the daemon's refusal before forwarding and
// the person's "Always on this site".

const PAGE = 'packages/page/src/dom/sensitive.ts';
const DECIDE = 'packages/daemon/src/approvals/decide.ts';
const BOOK = 'packages/daemon/src/approvals/book.ts';
const ACTIONS = 'packages/daemon/src/actions/page-actions.ts';
const USER = 'packages/daemon/src/approvals/user-approvals.ts';
const GATE_SRC = 'packages/daemon/src/approvals/gate.ts';
const RECOGNITION = 'packages/page/test/dom/sensitive.browser.test.ts › approvals recognition';
const DECISION = 'packages/daemon/test/approvals/decide.test.ts';
const GATE = 'packages/daemon/test/approvals/gate.test.ts › approvals at the daemon';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'approvals-card-fields',
    protects: 'a form with cc-* fields is classed as submit or pay whatever its button says',
    edits: [{ file: PAGE, find: 'if (tokens.length > 0)', replace: 'if (tokens.length < 0)' }],
    kills: [
      `${RECOGNITION} › classes a form with card fields as submit, by its submit button or Enter in a field, with secret values masked`,
    ],
  },
  {
    id: 'approvals-mask',
    protects: 'the values of card and password fields are masked in what a person is shown',
    edits: [
      {
        file: PAGE,
        find: "const value = secret ? (raw === '' ? '' : APPROVAL_MASK) : raw.slice(0, 200);",
        replace: 'const value = raw.slice(0, 200);',
      },
    ],
    kills: [
      `${RECOGNITION} › classes a form with card fields as submit, by its submit button or Enter in a field, with secret values masked`,
    ],
  },
  {
    id: 'approvals-send-names',
    protects: 'controls named Send, Post, Publish, Reply are classed as send',
    edits: [
      {
        file: PAGE,
        find: "{ class: 'send', pattern: /^(send|post|publish|reply)\\b/ },",
        replace: '',
      },
    ],
    kills: [`${RECOGNITION} › classes controls by their accessible name: pay, send, delete`],
  },
  {
    id: 'approvals-dressed-links',
    protects:
      'a link to another page is a link whatever role it is given: no class (the site policy judges it)',
    edits: [{ file: PAGE, find: '    if (leadsElsewhere(node)) return null;\n', replace: '' }],
    kills: [
      `${RECOGNITION} › takes a link dressed as a button or menu item for the link it is; a # or javascript: one stays a control`,
    ],
  },
  {
    id: 'approvals-script-links',
    protects: 'a # or javascript: link dressed as a button stays a control and is classed by its name',
    edits: [
      {
        file: PAGE,
        find: "  return node.href.split('#')[0] !== page;",
        replace: '  return page !== undefined;',
      },
    ],
    kills: [
      `${RECOGNITION} › takes a link dressed as a button or menu item for the link it is; a # or javascript: one stays a control`,
    ],
  },
  {
    id: 'approvals-prose',
    protects: 'a long name is prose, not a command: no class',
    edits: [
      {
        file: PAGE,
        find: "if (text === '' || text.split(' ').length > MAX_WORDS) return null;",
        replace: "if (text === '') return null;",
      },
    ],
    kills: [
      `${RECOGNITION} › leaves look-alikes alone: links, longer prose, words that only start the same, forms without card fields`,
    ],
  },
  {
    id: 'approvals-origin-decision',
    protects: "a person's per-origin decision comes before the class default",
    edits: [{ file: DECIDE, find: '  if (own !== undefined) return own;\n', replace: '' }],
    kills: [
      `${DECISION} › approvals class decision › takes the origin's own decision first, then the policy's class default; an unusable policy denies`,
    ],
  },
  {
    id: 'approvals-exactly-once',
    protects: 'an "Allow once" is consumed by the one retry it allowed',
    edits: [
      {
        file: BOOK,
        find: "      if (known.approval.state === 'allowed') {\n        this.forget(known);",
        replace: "      if (known.approval.state === 'allowed') {",
      },
    ],
    kills: [
      `${DECISION} › approvals book › holds an action until a person allows it, then lets the same action run exactly once`,
      `${GATE} › refuses a Pay click with APPROVAL_REQUIRED, runs the retry once after Allow once, leaves a look-alike alone`,
    ],
  },
  {
    id: 'approvals-gate',
    protects: 'a gated action is refused before it is forwarded',
    edits: [{ file: ACTIONS, find: '  if (held) return held;', replace: '  void held;' }],
    kills: [
      `${GATE} › refuses a Pay click with APPROVAL_REQUIRED, runs the retry once after Allow once, leaves a look-alike alone`,
      `${GATE} › no agent door decides: the user kinds posted as actions fail, and a driver that is not the extension is refused`,
    ],
  },
  {
    id: 'approvals-always-persists',
    protects: '"Always on this site" is written to policy.json',
    edits: [{ file: USER, find: '      deps.policy.source.save(next);', replace: '      void next;' }],
    kills: [
      `${GATE} › writes "Always on this site" to policy.json, which still holds after a restart; a denial is told once`,
    ],
  },
  {
    id: 'approvals-no-person-denies',
    protects: 'where no extension can answer, "ask" is denied',
    edits: [
      {
        file: GATE_SRC,
        find: "const someone = deps.clients.connected().some((c) => c.kind === 'extension');",
        replace: 'const someone = true;',
      },
    ],
    kills: [
      `${GATE} › denies "ask" in a headless daemon with no extension to ask, saying how to allow it, and forwards nothing`,
    ],
  },
];
