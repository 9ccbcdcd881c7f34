// Removals of the threat model's lines about restarts under the side panel: what the user shared is
// shared again after a daemon restart (and only that), the chat and the Terminal's `bproxy` follow the
// tab's session now (the Terminal's through a checked file), and a browser restart ends the sessions
// the user shared in its last run.

const RESTART =
  'tests/headed/daemon-restart.test.ts › a daemon restart under the real side panel › shares the tab again by itself, lets the debugger go, and the terminal and chat follow the new session';
const TERMINAL_FILE =
  'packages/cli/test/terminal-session.test.ts › the session bproxy drives in a panel terminal';

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'reshare-after-daemon-restart',
    protects: 'a tab the user shared is shared again by itself when the daemon comes back without it',
    build: true,
    edits: [
      {
        file: 'packages/extension/src/background/daemon/daemon-link.ts',
        find: '    for (const tabId of tabIds)\n',
        replace: '    for (const tabId of tabIds.slice(0, 0))\n',
      },
    ],
    kills: [RESTART],
  },
  {
    id: 'chat-asks-the-tab-session',
    protects: 'each chat message acts in the session holding the tab as it is sent, not a remembered one',
    build: true,
    edits: [
      {
        file: 'packages/extension/src/panel/chat-view.ts',
        find: '    const session = await this.shareTab(tab, chat, bubble);\n',
        replace:
          '    const kept = chat as { kept?: SessionId };\n' +
          '    const session = kept.kept ?? (kept.kept = await this.shareTab(tab, chat, bubble));\n',
      },
    ],
    kills: [RESTART],
  },
  {
    id: 'terminal-follows-tab-session',
    protects: "`bproxy` in a panel terminal drives the tab's session now, not the variable it started with",
    build: true,
    edits: [
      {
        file: 'packages/cli/src/global-options.ts',
        find: '  if (session !== undefined && session !== env.BPROXY_SESSION) return session;\n',
        replace: '  if (session !== undefined || session === undefined) return session;\n',
      },
    ],
    kills: [
      RESTART,
      `${TERMINAL_FILE} › is the tab’s session now, with no -s or with -s "$BPROXY_SESSION"; another -s is taken as written`,
    ],
  },
  {
    id: 'terminal-session-file-checked',
    protects: "the terminal's session file is read through the checked reader: no symlink, no loose mode",
    edits: [
      {
        file: 'packages/client/src/lifecycle/terminal-session.ts',
        find: "import { join } from 'node:path';\n",
        replace: "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\n",
      },
      {
        file: 'packages/client/src/lifecycle/terminal-session.ts',
        find: '  const text = readStateFile(file);\n',
        replace:
          '  let text: string | null = null;\n' +
          "  try {\n    text = readFileSync(file, 'utf8');\n  } catch {\n    text = null;\n  }\n",
      },
    ],
    kills: [
      `${TERMINAL_FILE} › refuses a terminal file open to others, or a symbolic link, rather than drive what it names`,
    ],
  },
  {
    id: 'browser-restart-ends-shared-sessions',
    build: true,
    protects: 'a browser that restarted (another run) loses the sessions the user shared in its last run',
    edits: [
      {
        file: 'packages/daemon/src/browsers/clients.ts',
        find: '    const restarted = existing?.run !== undefined && run !== undefined && existing.run !== run;\n',
        replace:
          '    const restarted = existing?.run !== undefined && run !== undefined && existing.run === "";\n',
      },
    ],
    kills: [
      'packages/daemon/test/actions/user-requests.test.ts › a browser that restarted › closes the sessions the user shared in its last run, and keeps them across a reconnect of the same run',
      'tests/headed/browser-restart.test.ts › a browser restart under the real side panel › closes the session of the tab the user shared, and the browser comes back free of it',
    ],
  },
];
