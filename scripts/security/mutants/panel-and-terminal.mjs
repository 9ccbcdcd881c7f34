// Removals of the threat model's sections 12 and 13 that concern the worker's relay and the Terminal
// (the Markdown renderer's are in chat-markdown.mjs).

const RELAY = 'packages/extension/src/background/host/panel-relay.ts';
const RELAY_TEST = 'packages/extension/test/background/host/panel-relay.test.ts › the panel relay';
const PTY = 'packages/native-host/src/terminal/pty-process.ts';
const HANDLER = 'packages/native-host/src/terminal/terminal-handler.ts';
const DOORS = 'packages/native-host/test/terminal-process.test.ts › the doors to a terminal';
const REAL = 'packages/native-host/test/terminal-process.test.ts › a terminal on the real host';
const TERMINAL_LOG = `${REAL} › logs a terminal by its program, pid and session only: no argument, key or output reaches host.log`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'terminal-keys-not-logged',
    protects: 'pty.input and pty.resize are not even logged by type',
    edits: [
      {
        file: 'packages/native-host/src/port-session.ts',
        find: "const QUIET_TYPES = new Set(['pty.input', 'pty.resize']);",
        replace: 'const QUIET_TYPES = new Set<string>([]);',
      },
    ],
    kills: [TERMINAL_LOG],
  },
  {
    id: 'terminal-arguments-not-logged',
    protects: "host.log names a terminal's program, never its arguments",
    edits: [
      { file: HANDLER, find: '      program: command[0],', replace: "      program: command.join(' ')," },
    ],
    kills: [TERMINAL_LOG],
  },
  {
    id: 'terminal-no-inherited-session',
    protects: "a terminal without a session of its own does not inherit the host's BPROXY_SESSION",
    edits: [
      {
        file: 'packages/native-host/src/terminal/terminal-command.ts',
        find: '  delete out.BPROXY_SESSION;\n',
        replace: '',
      },
    ],
    kills: [`${REAL} › gives a terminal without a session no BPROXY_SESSION, though the host has one`],
  },
  {
    id: 'relay-chat-watchers-only',
    protects: "a chat's stream goes to the panels watching it only",
    edits: [
      {
        file: RELAY,
        find: "        for (const port of this.chats.panelsFor(chatId)) this.post(port, { type: 'host', message });",
        replace: "        this.broadcast({ type: 'host', message });",
      },
    ],
    kills: [`${RELAY_TEST} › routes a chat's stream to the panels watching that chat only`],
  },
  {
    id: 'relay-terminal-viewers-only',
    protects: "a terminal's output goes to the panels showing it only",
    edits: [
      {
        file: RELAY,
        find: "        for (const port of this.terminals.panelsFor(termId)) this.post(port, { type: 'host', message });",
        replace: "        this.broadcast({ type: 'host', message });",
      },
    ],
    kills: [`${RELAY_TEST} › routes a terminal's output, exit and errors to the panels showing it only`],
  },
  {
    id: 'relay-schema',
    protects: 'every panel message is checked against its schema before the worker acts',
    edits: [
      {
        file: RELAY,
        find: '      const parsed = PanelToWorkerSchema.safeParse(raw);',
        replace: '      const parsed = { success: true, data: raw, error: { issues: [] } };',
      },
      {
        file: RELAY,
        find: '    if (!PANEL_HOST_TYPES.has(sent.type)) {',
        replace: '        if (false) {',
      },
    ],
    kills: [
      `${RELAY_TEST} › sends a chat message on to the host, and refuses malformed or non-panel messages`,
    ],
  },
  {
    id: 'relay-answer-to-asker',
    protects: 'a host answer goes to the panel that asked, under its id',
    edits: [
      {
        file: RELAY,
        find: "      post({ type: 'host', message: answerUnder(id, answer) });",
        replace: "      this.broadcast({ type: 'host', message: answer });",
      },
    ],
    kills: [`${RELAY_TEST} › answers a history request to the panel that asked, under its id`],
  },
  {
    id: 'terminal-no-listener',
    protects: 'the host binds no socket: the native port is the only way to a terminal',
    edits: [
      {
        file: PTY,
        find: '    live.add(started);\n    return started;',
        replace:
          "    live.add(started);\n    (await import('node:net')).createServer().listen(0, '127.0.0.1');\n    return started;",
      },
    ],
    kills: [`${DOORS} › listens on no socket while a terminal runs: the native port is the only way in`],
  },
  {
    id: 'terminal-spawn-on-key',
    protects: 'nothing spawns before the first key',
    edits: [
      {
        file: HANDLER,
        find: '        detachTimer: null,\n        emit,\n      });\n      // The view came back',
        replace:
          "        detachTimer: null,\n        emit,\n      });\n      const opened = this.terminals.get(message.termId);\n      if (opened !== undefined) void this.input(opened, '');\n      // The view came back",
      },
    ],
    kills: [
      `${REAL} › spawns nothing until the first key, then runs /bin/sh with the tab’s session and the CLI on PATH`,
    ],
  },
  {
    id: 'terminal-session-env',
    protects: "the terminal's BPROXY_SESSION names its tab's session, never the host's",
    build: true,
    edits: [
      {
        file: 'packages/native-host/src/terminal/terminal-command.ts',
        find: '  if (options.session !== undefined) out.BPROXY_SESSION = options.session;',
        replace: '',
      },
    ],
    kills: [
      `${REAL} › spawns nothing until the first key, then runs /bin/sh with the tab’s session and the CLI on PATH`,
      'tests/e2e/panel-terminal.test.ts › the Terminal view › runs a shell on the first key whose bproxy drives the tab, replays it when the panel opens again, and starts anew only on a key',
    ],
  },
  {
    id: 'terminal-sigkill-after-grace',
    protects: 'what ignores SIGHUP is SIGKILLed after the grace',
    edits: [
      {
        file: PTY,
        find: "    if (sessionAlive(leader)) {\n      signalSession(leader, 'SIGKILL');",
        replace: "    if (false) {\n      signalSession(leader, 'SIGKILL');",
      },
    ],
    kills: [
      `${REAL} › ends everything the terminal started on pty.close: the shell on SIGHUP, a job ignoring it by SIGKILL`,
      'packages/native-host/test/terminal/terminal-handler.test.ts › closing a terminal › ends the shell on SIGHUP well before the SIGKILL grace, then SIGKILLs a job that ignores SIGHUP',
      `${REAL} › ends every terminal, jobs ignoring SIGHUP included, within 2 s of the browser closing the port`,
    ],
  },
  {
    id: 'terminal-detach-window',
    protects: 'a terminal no view shows ends after the detach window',
    edits: [
      {
        file: HANDLER,
        find: '        if (terminal === undefined || terminal.detachTimer !== null) return;',
        replace: '        return;',
      },
    ],
    kills: [
      'packages/native-host/test/terminal/terminal-handler.test.ts › a detached terminal › ends after the detach window with SIGHUP, and stays ended until a key is pressed',
    ],
  },
  {
    id: 'terminal-output-held',
    protects: "a terminal's output is held while the browser reads nothing",
    edits: [
      { file: PTY, find: '    if (held) this.pty.pause();', replace: '    if (false) this.pty.pause();' },
    ],
    kills: [
      `${REAL} › holds a flooding program while the browser reads nothing, within bounded host memory, then flows again`,
    ],
  },
];
