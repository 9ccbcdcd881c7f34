// Removals of the threat model's sections on sharing a tab and the side panel: the user's controls.

const REQUESTS = 'packages/daemon/src/actions/user-requests.ts';
const SHARING = 'packages/daemon/test/actions/user-requests.test.ts › sharing a tab from the browser';
const HANDOFF = 'packages/daemon/test/actions/user-requests.test.ts › the hand-off controls of the user';
const PANEL_E2E = 'tests/e2e/side-panel.test.ts › the side panel';
const SESSIONS = 'packages/daemon/src/sessions/sessions.ts';
const PRIVATE =
  "packages/daemon/test/actions/user-requests.test.ts › sessions the user shared or holds are not other agents' to reach";
const SHARED_UNREACHED = `${PRIVATE} › a shared tab: its unguessable id is listed to no other agent, which cannot drive it; the agent it was handed to can`;
const HELD_UNREACHED = `${PRIVATE} › a session the user took over: unlisted to others, neither driven, re-bound nor re-paced until they resume`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'user-request-extension-only',
    protects: 'only an extension driver speaks for the user',
    edits: [
      {
        file: REQUESTS,
        find: "    if (record.kind !== 'extension') return refuse(",
        replace: "    if (record.kind === 'x') return refuse(",
      },
    ],
    kills: [SHARING],
  },
  {
    id: 'shared-tab-released',
    protects: 'closing a shared session releases the tab, which stays open',
    edits: [
      {
        file: 'packages/daemon/src/actions/session-actions.ts',
        find: '    if (tab.adopted) {',
        replace: '    if (false) {',
      },
    ],
    build: true,
    kills: [
      SHARING,
      'tests/e2e/drivers-extension.test.ts › what only the extension driver has › shares a tab the user opened: the popup gives the session, the CLI drives it, closing releases it',
    ],
  },
  {
    id: 'user-request-own-sessions',
    protects: 'the panel acts only on sessions holding a tab of this browser',
    edits: [
      {
        file: REQUESTS,
        find: '  return [...session.tabs.values()].some((t) => t.clientKey === record.key) ? session : null;',
        replace: '  return session;',
      },
    ],
    kills: [HANDOFF],
  },
  {
    id: 'take-over-holds',
    protects: 'a session the user took over stays theirs until their Resume',
    edits: [
      {
        file: 'packages/daemon/src/actions/session-actions.ts',
        find: '  if (session.heldByUser !== true) return null;',
        replace: '  if (session.heldByUser !== false) return null;',
      },
    ],
    kills: [
      `${HANDOFF} › keeps a session the user took over theirs: an agent can neither resume, unbind nor close it`,
    ],
  },
  {
    id: 'shared-unlisted',
    protects: 'a private session is listed only to the caller that names it',
    edits: [
      {
        file: SESSIONS,
        find: '    return this.all().filter((s) => s.id === caller || !isPrivate(s));',
        replace: '    return this.all();',
      },
    ],
    kills: [SHARED_UNREACHED, HELD_UNREACHED],
  },
  {
    id: 'shared-id-unguessable',
    protects: 'a shared session has a long unguessable id',
    edits: [
      {
        file: 'packages/daemon/src/sessions/session-identifiers.ts',
        find: "    const length = kind === 'shared' ? SHARED_SESSION_ID_LENGTH : 6;",
        replace: '    const length = 6;',
      },
    ],
    kills: [SHARED_UNREACHED],
  },
  {
    id: 'shared-pacing-by-user',
    protects: 'no agent changes the pacing of a tab the user shared',
    edits: [
      {
        file: 'packages/daemon/src/actions/session-actions.ts',
        find: '  if (params.pacing !== undefined && params.pacing !== session.pacing && session.sharedByUser === true)',
        replace: '  if (false)',
      },
    ],
    kills: [`${PRIVATE} › a shared tab keeps the pacing the user chose: no agent can change it`],
  },
  {
    id: 'held-private',
    protects: 'a session the user holds is listed to no other agent',
    edits: [
      {
        file: SESSIONS,
        find: '  return session.sharedByUser === true || session.heldByUser === true;',
        replace: '  return session.sharedByUser === true;',
      },
    ],
    kills: [HELD_UNREACHED],
  },
  {
    id: 'held-not-rebound',
    protects: 'a session the user holds is neither re-bound nor re-paced',
    edits: [
      {
        file: 'packages/daemon/src/actions/session-actions.ts',
        find: '  const held = heldByUser(session);\n  if (held) return held;\n  if (params.pacing',
        replace: '  if (params.pacing',
      },
    ],
    kills: [HELD_UNREACHED],
  },
  {
    id: 'activity-named-target',
    protects: 'the activity feed names each action by its target',
    edits: [
      {
        file: 'packages/daemon/src/actions/activity-trail.ts',
        find: '  if (ref !== undefined) entry.target = name === undefined ? { ref } : { ref, name };',
        replace: '',
      },
    ],
    kills: [
      'packages/daemon/test/actions/user-requests.test.ts › what the daemon pushes to the browser › records every action in its tab, named by its target, with its outcome and pacing wait',
    ],
  },
  {
    id: 'activity-no-typed-values',
    protects: 'values typed into fields never reach the activity feed',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/actions/activity-trail.ts',
        find: "  if (typeof target === 'string') ref = target;",
        replace:
          "  if (typeof target === 'string') ref = typeof request.params.value === 'string' ? request.params.value : target;",
      },
    ],
    kills: [
      `${PANEL_E2E} › shares the tab, shows what the CLI does there live, and hands the session over and back`,
    ],
  },
  {
    id: 'panel-resume-after-captcha',
    protects: 'a session paused at a CAPTCHA goes on only after the user resumes',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/actions/page-actions.ts',
        find: "    if (outcome.error.code === 'HUMAN_REQUIRED')\n      return pauseForHuman(",
        replace:
          "    if (outcome.error.code === 'HUMAN_REQUIRED' && outcome.ok)\n      return pauseForHuman(",
      },
    ],
    kills: [`${PANEL_E2E} › says why a session stopped at a CAPTCHA and lets it go on after Resume`],
  },
  {
    id: 'human-check-detects',
    protects: 'a CAPTCHA met mid-turn is detected and stops the agent',
    build: true,
    edits: [
      {
        file: 'packages/page/src/actions/detect-human.ts',
        find: '    if (waived.has(check.kind)) continue;',
        replace: '    if (check !== null) continue;',
      },
    ],
    kills: [
      'packages/agent/test/real-browser.browser.test.ts › the agent in a shared tab of a real browser › pauses on a CAPTCHA met mid-turn: the chat says why, and the session stays paused for the user',
    ],
  },
  {
    id: 'panel-own-pages-only',
    protects: 'panel ports only from the extension’s own panel page, never its content scripts',
    edits: [
      {
        file: 'packages/extension/src/background/own-pages.ts',
        find: "  return url.protocol === 'chrome-extension:' && url.host === extensionId && pages.includes(url.pathname);",
        replace: '  return true;',
      },
    ],
    kills: [
      'packages/extension/test/background/host/panel-relay.test.ts › the panel relay › disconnects a content script of a driven page, though it carries our extension id',
    ],
  },
  {
    id: 'panel-own-extension-only',
    protects: "panel ports only from this extension, never another's",
    edits: [
      {
        file: 'packages/extension/src/background/own-pages.ts',
        find: '  if (sender?.id !== extensionId || sender.url === undefined) return false;',
        replace: '  if (sender?.url === undefined) return false;',
      },
      {
        file: 'packages/extension/src/background/own-pages.ts',
        find: "url.protocol === 'chrome-extension:' && url.host === extensionId && pages",
        replace: "url.protocol === 'chrome-extension:' && pages",
      },
    ],
    kills: [
      'packages/extension/test/background/host/panel-relay.test.ts › the panel relay › disconnects a port from another extension, which then hears no chat',
    ],
  },
];
