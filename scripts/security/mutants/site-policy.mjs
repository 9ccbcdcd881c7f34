// Removals of the threat model's "The site policy": the file's checks, the daemon's refusal before a
// navigation is sent, its judgment of where a tab landed, the refusal of actions on a refused page,
// and the one door that writes the policy.

const STORE = 'packages/client/src/lifecycle/policy-store.ts';
const ENFORCE = 'packages/daemon/src/policy/enforce.ts';
const GATE = 'packages/daemon/src/policy/site-policy.ts';
const STORE_TEST = 'packages/client/test/lifecycle/policy-store.test.ts › the site policy file (policy.json)';
const UNIT = 'packages/daemon/test/policy/enforce.test.ts';
const DOOR = 'packages/daemon/test/policy/no-agent-door.test.ts › who can change the site policy';
const SUITE_FILES = ['tests/e2e/policy-cdp.test.ts', 'tests/e2e/policy-extension.test.ts'];
const SUITE = 'tests/kit/suites/policy.ts';

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
      `${SUITE} › pauses the session where a link took its tab, answers POLICY_DENIED, and reads nothing there after a resume`,
      `${SUITE} › pauses the session where a redirect took its tab, with POLICY_DENIED for the navigate that followed it`,
      `${SUITE} › pauses the session when $how opens a tab on the denied origin, and nothing runs in that tab`,
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
];
