// Removals of the threat model's sections on tabs a driven page opens and trusted input.

const OPENED = 'packages/daemon/src/sessions/opened-tabs.ts';
const TRUSTED = 'packages/extension/src/background/driver/trusted-actions.ts';
const TRUSTED_TEST =
  'packages/extension/test/background/driver/trusted-actions.test.ts › trusted input in the extension';
const BOTH_DRIVERS = ['tests/e2e/drivers-cdp.test.ts', 'tests/e2e/drivers-extension.test.ts'];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'opened-tab-while-paused',
    protects: 'what opens while a session waits for a person stays out of it',
    edits: [{ file: OPENED, find: '  if (session.paused) {', replace: '  if (false) {' }],
    kills: ['packages/daemon/test/sessions/opened-tabs.test.ts › tabs a page opens'],
  },
  {
    id: 'opened-tab-no-session',
    protects: 'a tab whose opener is in no session is ignored',
    edits: [
      {
        file: OPENED,
        find: '  const opener = sessions.byRaw(client.key, msg.openerTabId);',
        replace:
          '  const opener =\n    sessions.byRaw(client.key, msg.openerTabId) ?? sessions.all()[0]?.tabs.values().next().value;',
      },
    ],
    kills: ['packages/daemon/test/sessions/opened-tabs.test.ts › tabs a page opens'],
  },
  {
    id: 'opened-tab-limit',
    protects: 'a page that keeps opening tabs stops adding to its session at 100',
    edits: [
      { file: OPENED, find: '  if (session.tabs.size >= MAX_TABS_PER_SESSION) {', replace: '  if (false) {' },
    ],
    kills: ['packages/daemon/test/sessions/opened-tabs.test.ts › tabs a page opens'],
  },
  {
    id: 'opened-tab-shared-released',
    protects: 'a tab opened from a shared tab is released with it, not closed',
    edits: [
      { file: OPENED, find: '    ...(opener.adopted ? { adopted: true as const } : {}),', replace: '' },
    ],
    kills: ['packages/daemon/test/sessions/opened-tabs.test.ts › tabs a page opens'],
  },
  {
    id: 'opened-tab-joins-session',
    protects: 'a popup joins the session of its opener, on both drivers',
    build: true,
    edits: [
      {
        file: OPENED,
        find: '  if (sessions.byRaw(client.key, msg.tabId) !== undefined) return; // told twice (a reconnect)',
        replace: '  if (msg.tabId !== -1) return;',
      },
    ],
    run: BOTH_DRIVERS,
    kills: [
      'packages/daemon/test/sessions/opened-tabs.test.ts › tabs a page opens',
      'tests/kit/suites/gestures.ts',
    ],
  },
  {
    id: 'trusted-says-synthetic',
    protects: 'a fallback to synthetic input is said in the answer and the log',
    edits: [
      {
        file: TRUSTED,
        find: "    ctx.log.warn('input_synthetic', { tabId, action: call.action, reason: attached.reason });\n    return { ...(await synthetic()), input: 'synthetic' };",
        replace: '    return await synthetic();',
      },
    ],
    kills: [
      `${TRUSTED_TEST} › falls back to the page script when the debugger is refused, and says so in the answer and the log`,
    ],
  },
  {
    id: 'trusted-cancelled-bar',
    protects: 'a tab whose debugging bar the user cancelled is left alone',
    edits: [
      {
        file: 'packages/extension/src/background/driver/dialog-tracker.ts',
        find: '    if (this.refused.has(tabId))',
        replace: '    if (this.refused.has(-tabId))',
      },
    ],
    kills: [`${TRUSTED_TEST} › stays synthetic on a tab whose debugging bar the user cancelled`],
  },
  {
    id: 'trusted-not-repeated',
    protects: 'a worker that restarts mid-action does not send the input twice',
    edits: [{ file: TRUSTED, find: '  if (page.replayed) {', replace: '  if (false) {' }],
    kills: [
      `${TRUSTED_TEST} › does not send the input again for a request a previous worker life had started`,
    ],
  },
  {
    id: 'trusted-input-used',
    protects: 'clicks and keys reach the page as trusted events',
    build: true,
    edits: [
      {
        file: TRUSTED,
        find: '  const attached = await ctx.dialogs.attach(tabId);',
        replace: "  const attached = { ok: false, reason: 'removed' } as const;",
      },
    ],
    run: BOTH_DRIVERS,
    kills: [
      'tests/kit/suites/gestures.ts › clicks and key presses reach the page as trusted events, none synthetic',
    ],
  },
  {
    id: 'trusted-fallback-said-e2e',
    protects: "synthetic input on a page holding another extension's frame is said",
    build: true,
    edits: [
      {
        file: TRUSTED,
        find: "    ctx.log.warn('input_synthetic', { tabId, action: call.action, reason: attached.reason });\n    return { ...(await synthetic()), input: 'synthetic' };",
        replace: '    return await synthetic();',
      },
    ],
    kills: [
      "tests/e2e/drivers-extension.test.ts › what only the extension driver has › falls back to synthetic input on a page holding another extension's frame, and says so",
    ],
  },
];
