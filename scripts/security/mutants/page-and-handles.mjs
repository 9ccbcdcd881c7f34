// Removals of the threat model's section 5: what a malicious page's content can and cannot do.

const ROUTE = 'packages/daemon/test/http/command.test.ts › command route with a fake extension';
const HANDLES = 'packages/daemon/src/sessions/element-handles.ts';
const RECONNECT = 'packages/daemon/test/handles-reconnect.test.ts › element handles across a reconnect';
const SESSIONS = 'packages/daemon/src/sessions/sessions.ts';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'handle-scope-tab',
    protects: 'a handle works only in the tab it was read in',
    edits: [{ file: HANDLES, find: '    if (record.tab !== tab) {', replace: '    if (false) {' }],
    kills: [
      'packages/daemon/test/sessions/element-handles.test.ts › refuses a handle of another tab of the same session, and of another session',
      `${ROUTE} › makes handles stale after a navigation push and scoped to their tab`,
    ],
  },
  {
    id: 'handle-expiry',
    protects: 'an element handle expires 120 s after it was minted',
    edits: [
      {
        file: HANDLES,
        find: '    if (!record || record.expiresAt <= this.monotonic()) {',
        replace: '    if (!record) {',
      },
    ],
    kills: [
      'packages/daemon/test/sessions/element-handles.test.ts › ElementHandles › expires handles after 120 s',
    ],
  },
  {
    id: 'handle-stale-navigation',
    protects: 'a handle goes stale when its page navigates',
    edits: [
      {
        file: HANDLES,
        find: '    if (!page || page.epoch !== record.epoch || page.url !== record.url) {',
        replace: '    if (!page) {',
      },
    ],
    kills: [`${ROUTE} › makes handles stale after a navigation push and scoped to their tab`],
  },
  {
    id: 'handle-epochs-repeat',
    protects: 'page epochs never repeat, a disconnect included',
    edits: [
      {
        file: HANDLES,
        find: '    for (const key of [...this.pages.keys()]) if (key.startsWith(`${clientKey}#`)) this.pages.delete(key);',
        replace:
          '    for (const key of [...this.pages.keys()]) if (key.startsWith(`${clientKey}#`)) this.pages.delete(key);\n    this.lastEpoch = 0;',
      },
    ],
    kills: [
      `${RECONNECT} › stay stale after a navigation push that reports the same URL`,
      `${RECONNECT} › stay stale after a fresh read that reports the same URL, whose own handles work`,
    ],
  },
  {
    id: 'handle-never-retargeted',
    protects: 'a handle whose node was removed or replaced is refused, never retargeted by its selector',
    edits: [
      {
        file: 'packages/page/src/dom/resolve.ts',
        find: "    throw new PageError(\n      'ELEMENT_HANDLE_STALE',\n      registry.issued(target.ref)",
        replace:
          "    if (target.selector === undefined || !registry.issued(target.ref)) throw new PageError(\n      'ELEMENT_HANDLE_STALE',\n      registry.issued(target.ref)",
      },
    ],
    kills: [
      'packages/page/test/dom/registry.browser.test.ts › element refs › refuses a ref whose element was replaced by a re-render, even with a selector that matches the new one',
      'tests/kit/suites/diff.ts › diffs: a keyed re-render keeps handles that act, an unkeyed one replaces them and the old ones are refused',
    ],
    run: ['tests/e2e/drivers-cdp.test.ts'],
    build: true,
  },
  {
    id: 'session-raw-tab-ids',
    protects: 'raw tab ids never leave the daemon in session answers',
    edits: [
      {
        file: SESSIONS,
        find: '      tabs: [...session.tabs.keys()],',
        replace:
          '      tabs: [...session.tabs.keys()],\n      raw: [...session.tabs.values()].map((t) => t.rawTabId),',
      },
    ],
    kills: [
      'packages/daemon/test/sessions/sessions.test.ts › session state machine › never exposes raw tab ids',
    ],
  },
  {
    id: 'session-other-tabs',
    protects: "another session's tab is TAB_NOT_IN_SESSION, never reachable",
    edits: [
      {
        file: SESSIONS,
        find: "      if (other.tabs.has(handle)) return { ok: false, code: 'TAB_NOT_IN_SESSION' };",
        replace:
          '      const theirs = other.tabs.get(handle);\n      if (theirs) return { ok: true, tab: theirs };',
      },
    ],
    kills: [
      "packages/daemon/test/sessions/sessions.test.ts › session state machine › numbers tabs per session and tells another session's tab from an unknown one",
    ],
  },
  {
    id: 'driver-error-raw-ids',
    protects: "raw tab ids are scrubbed from a driver's error message",
    edits: [
      {
        file: 'packages/daemon/src/actions/page-actions.ts',
        find: '    const message = outcome.error.message.replace(rawId, `$1${tab.handle}`);',
        replace: '    const message = rawId === null ? "" : outcome.error.message;',
      },
    ],
    kills: [`${ROUTE} › keeps raw tab ids out of a driver error message`],
  },
  {
    id: 'human-pause-holds',
    protects: 'a paused session refuses forwarded actions until resumed',
    edits: [
      {
        file: 'packages/daemon/src/actions/page-actions.ts',
        find: '  // 2. paused for a human.\n  if (session.paused) {',
        replace: '  // 2. paused for a human.\n  if (false) {',
      },
    ],
    kills: [`${ROUTE} › pauses the session on HUMAN_REQUIRED and refuses forwarded actions until resume`],
  },
  {
    id: 'human-waiver-same-page',
    protects: 'a resume waives the check on the page where it fired only',
    edits: [
      {
        file: SESSIONS,
        find: '      const kinds = samePage ? [...new Set([...kept.kinds, found.kind])] : [found.kind];\n      tab.humanWaiver = { document: found.document, url: found.url, kinds };',
        replace:
          "      const kinds = samePage ? [...new Set([...kept.kinds, found.kind])] : [found.kind];\n      tab.humanWaiver = { document: found.document, url: found.url, kinds: [...kinds, 'captcha', 'login'] };",
      },
    ],
    kills: [
      `${ROUTE} › after a resume, forwards a waiver for the check that paused the session, on that page only`,
    ],
  },
  {
    id: 'page-waiver-document',
    protects: 'the page honours a waiver on its own document and URL only',
    edits: [
      {
        file: 'packages/page/src/actions/detect-human.ts',
        find: '  if (doc !== ctx.documentId || url !== location.href || !Array.isArray(kinds)) return new Set();',
        replace: '  if (!Array.isArray(kinds)) return new Set();',
      },
    ],
    kills: [
      'packages/page/test/actions/detect-human.browser.test.ts › detectHuman › waives the kinds a person resumed for on this document and URL only',
    ],
  },
];
