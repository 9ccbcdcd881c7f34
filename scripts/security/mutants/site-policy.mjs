// Removals of the threat model's "The site policy": the file's checks, the daemon's refusal before a
// navigation is sent, its judgment of where a tab landed, the refusal of actions on a refused page,
// the one door that writes the policy, and the drivers' stop of navigations in the browser.

const STORE = 'packages/client/src/lifecycle/policy-store.ts';
const ENFORCE = 'packages/daemon/src/policy/enforce.ts';
const GATE = 'packages/daemon/src/policy/site-policy.ts';
const STORE_TEST = 'packages/client/test/lifecycle/policy-store.test.ts › the site policy file (policy.json)';
const UNIT = 'packages/daemon/test/policy/enforce.test.ts';
const DOOR = 'packages/daemon/test/policy/no-agent-door.test.ts › who can change the site policy';
const SUITE_FILES = ['tests/e2e/policy-cdp.test.ts', 'tests/e2e/policy-extension.test.ts'];
const SUITE = 'tests/kit/suites/policy.ts';
const CDP_GUARD = 'packages/cdp/src/driver/nav-guard.ts';
const EXT_GUARD = 'packages/extension/src/background/driver/nav-guard.ts';
const RULES = 'packages/extension/test/background/driver/nav-guard.test.ts › the guard rules';
const POPUP = `${SUITE} › closes the tab $how opens on the denied origin before it is requested, and pauses the session`;
/** What the drivers' stop proves: the denied origin's server hears nothing. */
const STOPPED = [
  `${SUITE} › stops a link to the denied origin before it is requested, answers POLICY_DENIED, pauses, and reads nothing there after a resume`,
  `${SUITE} › stops a 302 to the denied origin before its target is requested, with POLICY_DENIED for the navigate that followed it`,
  `${SUITE} › stops a page's script sending the tab to the denied origin before it is requested, and pauses the session`,
  POPUP,
];

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'policy-file-malformed',
    protects: 'a policy.json outside the format is refused, not taken as the defaults',
    edits: [
      {
        file: STORE,
        find: "  if (file === 'invalid')\n    throw new LifecycleError(",
        replace:
          "  if (file === 'invalid') return DEFAULT_SITE_POLICY;\n  if (file === null)\n    throw new LifecycleError(",
      },
    ],
    kills: [
      `${STORE_TEST} › refuses a file open to others, a symlink, or content outside the format (fail closed)`,
    ],
  },
  {
    id: 'policy-file-broken-denies',
    protects: 'a policy.json that turns bad while the daemon runs denies every origin',
    edits: [
      {
        file: STORE,
        find: '    return verdict === null ? null : { origin: verdict.origin, broken: now.broken };',
        replace: '    return verdict;',
      },
    ],
    kills: [
      `${STORE_TEST} › in a running daemon, a hand edit takes effect at once and an unusable file denies every origin until fixed`,
    ],
  },
  {
    id: 'policy-navigate-refused',
    protects: 'a navigate or tab open to a refused origin is answered before anything is forwarded',
    build: true,
    edits: [
      {
        file: ENFORCE,
        find: '  if (!refuses(verdict)) return null;\n  deps.policy.noteRefusal({\n    at: deps.clock.now(),\n    origin: verdict.origin,\n    rule: ruleOf(verdict),\n    session: session?.id',
        replace:
          '  if (verdict !== undefined) return null;\n  deps.policy.noteRefusal({\n    at: deps.clock.now(),\n    origin: verdict.origin,\n    rule: ruleOf(verdict),\n    session: session?.id',
      },
    ],
    run: SUITE_FILES,
    kills: [
      `${UNIT} › the site policy on navigations › refuses navigate and tab.open to a denied or "ask" origin before anything is forwarded, and lets others through`,
      `${SUITE} › refuses a navigate to the denied origin before the browser asks for it, and leaves the home site alone`,
    ],
  },
  {
    id: 'policy-ask-denied',
    protects: '"ask" is denied while no person can answer',
    edits: [
      {
        file: GATE,
        find: "  return verdict !== null && ('broken' in verdict || verdict.decision !== 'allow');",
        replace: "  return verdict !== null && ('broken' in verdict || verdict.decision === 'deny');",
      },
    ],
    kills: [
      `${UNIT} › the site policy on navigations › refuses navigate and tab.open to a denied or "ask" origin before anything is forwarded, and lets others through`,
    ],
  },
  {
    id: 'policy-landing-judged',
    protects:
      'a tab a link, popup or redirect took to a refused origin pauses its session, and the action answers POLICY_DENIED',
    build: true,
    edits: [
      {
        file: ENFORCE,
        find: '  if (!refuses(verdict)) return null;\n  // Already paused',
        replace: '  if (verdict !== undefined) return null;\n  // Already paused',
      },
    ],
    run: SUITE_FILES,
    kills: [
      `${UNIT} › the site policy on navigations › pauses the session where a click took its tab to a denied origin, answers POLICY_DENIED, and runs nothing there even after a resume`,
      `${UNIT} › the site policy on navigations › pauses the session when a popup its page opened lands on a denied origin, and judges pushes that arrive after the answer`,
      `${SUITE} › stops a link to the denied origin before it is requested, answers POLICY_DENIED, pauses, and reads nothing there after a resume`,
      `${SUITE} › stops a 302 to the denied origin before its target is requested, with POLICY_DENIED for the navigate that followed it`,
      `${SUITE} › closes the tab $how opens on the denied origin before it is requested, and pauses the session`,
    ],
  },
  {
    id: 'policy-refused-page',
    protects: 'no action but leaving runs on a page of a refused origin, even after a resume',
    edits: [
      {
        file: ENFORCE,
        find: '  if (LEAVING.has(action)) return null;',
        replace: '  if (LEAVING.size > 0) return null;',
      },
    ],
    kills: [
      `${UNIT} › the site policy on navigations › pauses the session where a click took its tab to a denied origin, answers POLICY_DENIED, and runs nothing there even after a resume`,
    ],
  },
  {
    id: 'policy-agent-door',
    protects: 'no agent action writes the site policy',
    edits: [
      {
        file: 'packages/daemon/src/actions/session-actions.ts',
        find: '  deps.sessions.resume(session);',
        replace:
          "  deps.sessions.resume(session);\n  deps.policy.source.save({ version: 1, default: 'allow', origins: {} });",
      },
    ],
    kills: [
      `${DOOR} › no protocol action, whatever its params, writes policy.json or lets the denied origin through`,
    ],
  },
  {
    id: 'policy-user-door-extension-only',
    protects: 'only an extension connection speaks on the user channel that writes the policy',
    edits: [
      {
        file: 'packages/daemon/src/actions/user-requests.ts',
        find: "    if (record.kind !== 'extension') return refuse(",
        replace: "    if (record.kind === 'bogus') return refuse(",
      },
    ],
    kills: [`${DOOR} › refuses the policy requests from a driver that is not the extension`],
  },
  {
    id: 'policy-mcp-tools-are-actions',
    protects: 'every MCP tool sends one action of the protocol table',
    edits: [
      {
        file: 'packages/tools/src/catalogue.ts',
        find: "    name: (override.name ?? action.replaceAll('.', '_')) as ToolName,\n    action,",
        replace:
          "    name: (override.name ?? action.replaceAll('.', '_')) as ToolName,\n    action: `${action}.policy` as ActionName,",
      },
    ],
    kills: [
      'packages/tools/test/no-policy-door.test.ts › MCP tools and the site policy › every tool is an action of the protocol table (or the capabilities switch), none a policy door',
    ],
  },
  {
    id: 'policy-panel-writes',
    protects: "the Policy view's clicks write policy.json through the user channel",
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/policy/user-policy.ts',
        find: "    deps.policy.source.save(request.kind === 'policy_reset' ? DEFAULT_SITE_POLICY : request.policy);",
        replace: '    void DEFAULT_SITE_POLICY;',
      },
    ],
    run: ['tests/e2e/policy-extension.test.ts'],
    kills: [
      `${UNIT} › the site policy door › reads, replaces and resets the policy over the extension’s user channel, and the next navigation obeys it`,
      'tests/e2e/policy-extension.test.ts › the Policy view of the side panel › adds, removes and resets rules by a person’s clicks, written 0600, obeyed by agents at once',
    ],
  },
  {
    id: 'policy-guard-cdp',
    protects: "the CDP driver stops a driven tab's navigation to a refused origin before it is requested",
    build: true,
    edits: [
      {
        file: CDP_GUARD,
        find: '      guardRefuses(this.policy, url);',
        replace: '      !guardRefuses(this.policy, url);',
      },
    ],
    run: ['tests/e2e/policy-cdp.test.ts'],
    kills: STOPPED,
  },
  {
    id: 'policy-guard-cdp-popup',
    protects: 'the CDP driver guards a tab a driven page opens from its first request',
    build: true,
    edits: [
      {
        file: 'packages/cdp/src/driver/connected-browser.ts',
        find: '    this.guard.opened(info.targetId, opener);',
        replace: '    void opener;',
      },
    ],
    run: ['tests/e2e/policy-cdp.test.ts'],
    kills: [POPUP],
  },
  {
    id: 'policy-guard-cdp-popup-close',
    protects: 'the CDP driver closes a popup whose first page it stopped on a refused origin',
    build: true,
    edits: [
      {
        file: CDP_GUARD,
        find: "    if (opener !== undefined) void c.send('Target.closeTarget', { targetId: frameId }).catch(() => undefined);",
        replace: '    if (opener !== undefined) void frameId;',
      },
    ],
    kills: [
      'tests/e2e/policy-cdp.test.ts › the site policy in a CDP browser whose targets the test lists › closes the popup window.open started on the denied origin: the browser lists no page of it',
    ],
  },
  {
    id: 'policy-guard-action-denied',
    protects: 'the action running when the driver stopped a navigation answers POLICY_DENIED',
    build: true,
    edits: [{ file: ENFORCE, find: '    if (block) {', replace: '    if (block?.seq === -1) {' }],
    run: ['tests/e2e/policy-cdp.test.ts'],
    kills: [
      `${SUITE} › stops a 302 to the denied origin before its target is requested, with POLICY_DENIED for the navigate that followed it`,
    ],
  },
  {
    id: 'policy-guard-extension',
    protects:
      "the extension's session rules stop a driven tab's navigation to a refused origin before it is requested",
    build: true,
    edits: [
      {
        file: EXT_GUARD,
        find: '    const rules = on && this.policy !== undefined ? guardRules(this.policy, excluded) : [];',
        replace:
          '    const rules = !on && this.policy !== undefined ? guardRules(this.policy, excluded) : [];',
      },
    ],
    run: ['tests/e2e/policy-extension.test.ts'],
    kills: STOPPED,
  },
  {
    id: 'policy-guard-extension-popup-closed',
    protects: 'the extension closes a popup whose first page its rules stopped',
    build: true,
    edits: [
      {
        file: EXT_GUARD,
        find: '      void this.chrome.tabs.remove(tabId).catch(() => undefined);',
        replace: '      void tabId;',
      },
    ],
    run: ['tests/e2e/policy-extension.test.ts'],
    kills: [POPUP],
  },
  {
    id: 'policy-guard-extension-popup-source',
    protects: "the extension knows a popup of a driven tab behind the user's (no openerTabId) by its source",
    build: true,
    edits: [
      {
        file: EXT_GUARD,
        find: '      if (!this.tabs.has(opener) && !this.firstLoads.has(opener)) return;',
        replace: '      return;',
      },
    ],
    run: ['tests/e2e/policy-extension.test.ts'],
    kills: [POPUP],
  },
  {
    id: 'policy-guard-user-tabs',
    protects: "the extension's rules leave the person's own tabs alone",
    build: true,
    edits: [
      {
        file: EXT_GUARD,
        find: '    const excluded = [...this.userTabs].filter((id) => !this.tabs.has(id));',
        replace: '    const excluded = [...this.userTabs].filter((id) => id < 0);',
      },
    ],
    run: ['tests/e2e/policy-extension.test.ts'],
    kills: [
      "tests/e2e/policy-extension.test.ts › the site policy's guard in the user's Chrome › leaves the person alone: their own tab loads the denied origin while an agent drives a tab",
    ],
  },
  {
    id: 'policy-guard-rules-order',
    protects: "the extension's rules apply the policy in decideUrl's order (exact, longest pattern, default)",
    edits: [
      {
        file: EXT_GUARD,
        find: "    const priority = wild ? 10 + key.split('.').length : 10_000;",
        replace: '    const priority = wild ? 10 : 10;',
      },
    ],
    kills: [`${RULES} › stop what the policy refuses and nothing else (policy $n)`],
  },
  {
    id: 'policy-guard-rules-unusable',
    protects: "an unusable policy.json makes the extension's rules stop every page",
    edits: [
      {
        file: EXT_GUARD,
        find: "  if (policy === null) return [rule(1, 1, false, '^https?://')];",
        replace: "  if (policy === null) return [rule(1, 1, true, '^https?://')];",
      },
    ],
    kills: [`${RULES} › stop every http(s) page when the policy is unusable`],
  },
];
