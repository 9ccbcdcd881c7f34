// Removals of the threat model's lines on agents in the background of the user's Chrome: an agent's
// tab opens behind the user's in a folded group by default and still draws its frames there, the site
// policy can forbid --foreground, and the debugger leaves a tab left idle.

const SUITE = "tests/e2e/background-extension.test.ts › agents in the background of the user's Chrome";

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'background-tab-inactive',
    protects: "an agent's new tab does not take the user's tab",
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/driver/tab-actions.ts',
        find: '    const active = params.active === true;',
        replace: '    const active = true;',
      },
    ],
    kills: [
      `${SUITE} › opens and drives an agent's tabs behind the user's by default, in a folded group, never taking the user's tab or window`,
    ],
  },
  {
    id: 'background-group-folded',
    protects: "an agent's new group is folded",
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/daemon/browser-view.ts',
        find: '      await this.chrome.tabGroups.update(groupId, { collapsed: true });',
        replace: '      await this.chrome.tabGroups.update(groupId, {});',
      },
    ],
    kills: [
      `${SUITE} › opens and drives an agent's tabs behind the user's by default, in a folded group, never taking the user's tab or window`,
    ],
  },
  {
    id: 'background-tab-draws-frames',
    protects: "an agent's tab behind the user's draws its frames while driven",
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/driver/driver.ts',
        find: '    await frames.keep(tabId);\n',
        replace: '',
      },
    ],
    kills: [
      `${SUITE} › draws the frames and runs the timers of an agent's tab behind the user's, as in front`,
    ],
  },
  {
    id: 'background-foreground-policy',
    protects: 'the site policy can forbid an agent to bring its tab to the front',
    build: true,
    edits: [
      {
        file: 'packages/daemon/src/actions/tab-open.ts',
        find: '    refuseForeground(deps, session, params.active) ??\n',
        replace: '',
      },
    ],
    kills: [
      'packages/daemon/test/policy/foreground.test.ts › the site policy on bringing a tab to the front › answers POLICY_DENIED to a tab.open asking for the front when foreground is denied, forwarding nothing',
      'packages/daemon/test/policy/foreground.test.ts › the site policy on bringing a tab to the front › refuses the front when policy.json is unusable (fail closed)',
      `${SUITE} › answers POLICY_DENIED to --foreground when the site policy forbids it, opening nothing, and still opens behind`,
    ],
  },
  {
    id: 'background-debugger-idle-detach',
    protects: 'the debugger leaves a tab left idle',
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/driver/idle-debugger.ts',
        find: '    this.rested.add(tabId);\n    await this.dialogs.detachIdle(tabId);',
        replace: '    this.rested.add(tabId);',
      },
    ],
    kills: [
      `${SUITE} › takes the debugger off a tab idle for the period and puts it back for the next action, which works as before`,
      'packages/extension/test/background/driver/idle-debugger.test.ts › the debugger leaving idle tabs › detaches once the period passed with no action, and attaches again before the next one',
    ],
  },
];
