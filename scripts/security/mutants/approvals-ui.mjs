// Removals of the threat model's "Approvals" as a person meets them: what waits pushed to the extension,
// the toolbar badge, the held action in the Activity feed, expiry, and Enter with no target judged on the
// focused element (the daemon's read, and the page layer's answer).

const PUSH = 'packages/daemon/test/approvals/push.test.ts';
const PUSHED = `${PUSH} › approvals pushed to the person`;
const SUITE = 'tests/kit/suites/approvals.ts';
const CDP = 'tests/e2e/approvals-cdp.test.ts';
const EXTENSION = 'tests/e2e/approvals-extension.test.ts';
const HEADED = 'tests/headed/approvals-panel.test.ts';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'approvals-ui-push',
    protects: 'what waits for a decision is pushed to every extension whenever it changes',
    edits: [
      {
        file: 'packages/daemon/src/browsers/browser-state.ts',
        find: "        client.transport.send({ type: 'approvals', pending });",
        replace: '        void pending;',
      },
    ],
    kills: [
      `${PUSHED} › pushes what waits after the welcome and on every change (and the held action to the feed), and nothing once decided or its session closed`,
    ],
  },
  {
    id: 'approvals-ui-feed',
    protects: 'a held action reaches the Activity feed of the browser holding the tab',
    edits: [
      {
        file: 'packages/daemon/src/actions/page-actions.ts',
        find: '  if (held && ctx.trail) ctx.trail.tab = tab;',
        replace: '  if (held && ctx.trail) void tab;',
      },
    ],
    kills: [
      `${PUSHED} › pushes what waits after the welcome and on every change (and the held action to the feed), and nothing once decided or its session closed`,
    ],
  },
  {
    id: 'approvals-ui-expire',
    protects: 'an approval nobody decides, or an allowance nobody uses, expires',
    edits: [
      {
        file: 'packages/daemon/src/approvals/book.ts',
        find: 'const gone = [...this.byId.values()].filter((e) => e.expiresAt <= now);',
        replace: 'const gone = [...this.byId.values()].filter((e) => e.expiresAt < 0 && now > 0);',
      },
    ],
    kills: [
      `${PUSH} › the approval book › forgets what nobody decided, and an allowance nobody used, after the expiry; and says so`,
    ],
  },
  {
    id: 'approvals-ui-enter-read',
    protects: 'Enter with no target is judged before it is forwarded',
    edits: [
      {
        file: 'packages/daemon/src/approvals/gate.ts',
        find: "  if (action === 'press' && params.key === 'Enter') return 'enter';\n  if (params.target === undefined) return null;",
        replace:
          "  if (params.target === undefined) return null;\n  if (action === 'press' && params.key === 'Enter') return 'enter';",
      },
    ],
    kills: [
      `${PUSHED} › judges Enter with no target on the focused element (the page reads it), and holds it`,
    ],
  },
  {
    id: 'approvals-ui-enter-focused',
    protects: 'the page layer judges Enter with no target on the focused element',
    build: true,
    edits: [
      {
        file: 'packages/page/src/actions/inspect.ts',
        find: '    return deepActiveElement() ?? document.body;',
        replace: '    return deepActiveElement() === null ? document.body : document.body;',
      },
    ],
    run: [CDP],
    kills: [
      `${SUITE} › recognises Enter pressed with no target in the card field (the focused element), and not in the coupon field`,
    ],
  },
  {
    id: 'approvals-ui-badge',
    protects: 'the toolbar badge says a decision waits',
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/daemon/browser-view.ts',
        find: "      asks > 0 ? `${asks}?` : sessions.length === 0 ? '' :",
        replace: "      asks < 0 ? `${asks}?` : sessions.length === 0 ? '' :",
      },
    ],
    run: [EXTENSION, HEADED],
    kills: [
      `${SUITE} › holds Place order on a checkout with card fields, shows it with the card masked, and runs it once after Allow once`,
      `${HEADED} › approvals in the real side panel › shows the held Place order with the badge, and Allow once clicked there runs it exactly once`,
    ],
  },
  {
    id: 'approvals-ui-feed-words',
    protects: 'the Activity says in words that an agent asks first, or that the person denied it',
    edits: [
      {
        file: 'packages/extension/src/panel/activity-words.ts',
        find: "      if (entry.error?.code === 'APPROVAL_REQUIRED')",
        replace: "      if (entry.error?.code === 'APPROVAL_REQUIRED' && entry.seq < 0)",
      },
    ],
    kills: [
      'packages/extension/test/panel/approval-words.test.ts › approvals in words › says in the Activity that an agent asks first, or that the person denied it',
    ],
  },
  {
    id: 'approvals-ui-always-allows',
    protects: '"Always on this site" stands for later actions, after a restart too',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/approvals/user-approvals.ts',
        find: "classes: { ...entry.classes, [approval.class]: 'allow' },",
        replace: "classes: { ...entry.classes, [approval.class]: 'ask' },",
      },
    ],
    run: [CDP],
    kills: [
      `${SUITE} › holds Send in a message composer; Always on this site writes the policy and later sends run at once; Send feedback and Save draft never ask`,
      `${CDP} › approvals after a daemon restart with no extension › keeps "Always on this site" from policy.json, and denies what still asks since nobody can answer`,
    ],
  },
  {
    id: 'approvals-ui-chat-line',
    protects: "the Chat says under a held tool call that it waits for the person's decision",
    build: true,
    edits: [
      {
        file: 'packages/extension/src/panel/chat-log.ts',
        find: "if (ok === false && text.startsWith('APPROVAL_REQUIRED'))",
        replace: "if (ok === false && text.startsWith('APPROVAL_REQUIRED') && text.length < 0)",
      },
    ],
    kills: [
      'tests/e2e/approvals-chat.test.ts › approvals in the Chat › says under the held tool call that it waits for the person, and runs the retry once after Allow once',
    ],
  },
];
