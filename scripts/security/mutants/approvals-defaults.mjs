// Removals of the threat model's "Approvals" defaults and action classes: the built-in defaults, which
// browsers count as launched for agents, upload and state export gated after their own doors, and the
// first visit on navigate and tab open.

const DECIDE = 'packages/daemon/src/approvals/decide.ts';
const GATE_SRC = 'packages/daemon/src/approvals/gate.ts';
const LAUNCHERS = 'packages/daemon/src/browsers/launchers.ts';
const STEPS = 'packages/daemon/src/actions/tab-steps.ts';
const TAB_OPEN = 'packages/daemon/src/actions/tab-open.ts';
const DECISION = 'packages/daemon/test/approvals/decide.test.ts › approvals class decision';
const DEFAULTS = 'packages/daemon/test/approvals/defaults.test.ts › approvals: built-in defaults';
const CLASSES =
  'packages/daemon/test/approvals/defaults.test.ts › approvals: upload, state export, first visit';

const USER_ASKS = `${DEFAULTS} › with no classes in policy.json, the user's Chrome asks for pay, upload and state export`;
const LAUNCHED = `${DEFAULTS} › a browser bproxy launched asks (denies, with no one to ask) only pay/submit, send and delete; an attached one is the user’s`;
const UPLOAD = `${CLASSES} › asks an upload only after the allowed folders let it through, and runs the retry once after Allow once`;
const STATE = `${CLASSES} › asks a state export in the user's Chrome only once user-chrome.json allows cookies at all (STATE_NOT_ALLOWED first)`;
const FIRST = `${CLASSES} › asks a first visit by navigate or tab.open when first_visit is ask; a named origin or the same origin goes`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'approvals-defaults-on',
    protects: 'a class policy.json does not name takes the built-in default of where the browser is',
    edits: [
      {
        file: DECIDE,
        find: 'return policy.classes?.[cls] ?? builtInDefault(cls, where);',
        replace: "return policy.classes?.[cls] ?? 'allow';",
      },
    ],
    kills: [
      `${DECISION} › the built-in defaults: every class asks in the user's Chrome but a first visit; in a launched browser only submit, send and delete`,
      USER_ASKS,
    ],
  },
  {
    id: 'approvals-launched-kind',
    protects: "only a browser bproxy launched gets the launched defaults; an attached one is the user's",
    edits: [
      {
        file: LAUNCHERS,
        find: "      this.find(record.launcher)?.kind === 'launched'\n    );",
        replace: '      this.find(record.launcher) !== undefined\n    );',
      },
    ],
    kills: [LAUNCHED],
  },
  {
    id: 'approvals-upload-class',
    protects: 'upload and drop are gated as the upload class',
    edits: [{ file: GATE_SRC, find: "  upload: 'upload',\n  drop: 'upload',\n", replace: '' }],
    kills: [USER_ASKS, UPLOAD, LAUNCHED],
  },
  {
    id: 'approvals-state-export-class',
    protects: 'state save and cookies list are gated as state export',
    edits: [
      {
        file: GATE_SRC,
        find: "  'state.save': 'state_export',\n  'cookies.list': 'state_export',\n",
        replace: '',
      },
    ],
    kills: [USER_ASKS, STATE, LAUNCHED],
  },
  {
    id: 'approvals-doors-first',
    protects: 'the allowed folders and user-chrome.json answer before anyone is asked',
    edits: [
      { file: STEPS, find: '  [STEP_GATED, approvalStep],\n', replace: '' },
      {
        file: STEPS,
        find: "  [['navigate'], navigateStep],\n",
        replace: "  [STEP_GATED, approvalStep],\n  [['navigate'], navigateStep],\n",
      },
    ],
    kills: [UPLOAD, STATE],
  },
  {
    id: 'approvals-first-visit-navigate',
    protects: 'a navigate to an origin no rule names asks when first_visit is ask',
    edits: [
      {
        file: GATE_SRC,
        find: '      const refused = firstVisitGate(sc.deps, action, sc.session, sc.tab, sc.client, url);\n      return refused ?? { params };',
        replace: '      void url;\n      return { params };',
      },
    ],
    kills: [FIRST],
  },
  {
    id: 'approvals-first-visit-tab-open',
    protects: 'a tab open to an origin no rule names asks when first_visit is ask',
    edits: [
      {
        file: TAB_OPEN,
        find: "    refuseForeground(deps, session, params.active) ??\n    firstVisitGate(deps, 'tab.open', session, null, client, checked.url);",
        replace: '    refuseForeground(deps, session, params.active) ?? (firstVisitGate ? null : null);',
      },
    ],
    kills: [FIRST],
  },
];
