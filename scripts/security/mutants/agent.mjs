// Removals of the threat model's section 9: the in-browser agent, its keys, its scratch files and the
// pages it reads. (Its key and notes files are state files: their mode and link checks are the
// client's, removed in gate-and-state.mjs.)

const SCRATCH = 'packages/agent/src/tools/scratch-files.ts';
const SANDBOX = 'packages/agent/test/tools/scratch-files.test.ts › the scratch-file sandbox';
const SETTINGS = 'packages/agent/test/chats.test.ts › settings';
const TURN = 'packages/agent/test/turns.test.ts › a turn with the %s streaming format';
const EXFIL = 'packages/agent/test/notes-and-exfiltration.test.ts';
const NOTES_PER_CHAT = `${EXFIL} › notes are kept per chat › a note written in chat A is not visible to chat B, and chat A recalls it`;
const NAVIGATION = `${EXFIL} › a navigation carrying what the agent recalled or read`;
const REFUSED = `${NAVIGATION} › is refused with a clear tool error, and the attacker server receives nothing`;
const AFTER_RESTART = `${NAVIGATION} › is refused after a restart too: the stored chat still holds what was recalled`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'agent-config-by-field',
    protects: 'a malformed key file is reported by field, never by value',
    edits: [
      {
        file: 'packages/agent/src/config/agent-config.ts',
        find: '      `${path} is not a valid ${what} file (at "${where}"); fix or remove it`,',
        replace: '      `${path} is not a valid ${what} file (at "${where}": ${text}); fix or remove it`,',
      },
    ],
    kills: [
      'packages/agent/test/config/agent-config.test.ts › agent key file › refuses a malformed key file by field, never by value',
    ],
  },
  {
    id: 'agent-settings-no-key',
    protects: 'the settings the extension gets say configured, never the key',
    edits: [
      {
        file: 'packages/agent/src/service.ts',
        find: '      configured: isConfigured(config, hasKey),\n    };',
        replace:
          '      configured: isConfigured(config, hasKey),\n      key: name === null ? null : readKey(this.paths, name),\n    };',
      },
    ],
    kills: [`${SETTINGS} › reports configured without the key, and never the key itself`],
  },
  {
    id: 'agent-model-error-scrubbed',
    protects: "a provider's error is scrubbed of the key",
    edits: [
      {
        file: 'packages/agent/src/providers/model-errors.ts',
        find: "  if (key !== null && key.length >= 4) out = out.split(key).join('[key]');\n  return out.replace(KEY_SHAPES, '[key]');",
        replace: '  return out;',
      },
    ],
    kills: [`${TURN} › ends the turn with MODEL_ERROR that names the refusal and never the key`],
  },
  {
    id: 'scratch-no-dotdot',
    protects: 'scratch paths may not climb with ..',
    edits: [
      {
        file: SCRATCH,
        find: "  if (segments.includes('..'))",
        replace: "  if (segments.includes('\\u0000..'))",
      },
    ],
    kills: [`${SANDBOX} › refuses %s for reads and writes`],
  },
  {
    id: 'scratch-relative-only',
    protects: 'scratch paths are relative: no absolute path, drive letter or ~',
    edits: [
      {
        file: SCRATCH,
        find: "  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~'))",
        replace: '  if (path === "\\u0000")',
      },
    ],
    kills: [`${SANDBOX} › refuses %s for reads and writes`],
  },
  {
    id: 'scratch-no-linked-folder',
    protects: 'no folder on the way may be a symbolic link',
    edits: [
      { file: SCRATCH, find: '    } else if (stats.isSymbolicLink())', replace: '    } else if (false)' },
      {
        file: SCRATCH,
        find: '    else if (!stats.isDirectory()) throw',
        replace: '    else if (false) throw',
      },
    ],
    kills: [
      `${SANDBOX} › follows no symbolic link: not a linked folder, not a linked file, for reads or writes`,
    ],
  },
  {
    id: 'scratch-file-cap',
    protects: 'a scratch file holds at most 1 MiB, appends included',
    edits: [{ file: SCRATCH, find: '    if (after > FILE_MAX_BYTES)', replace: '    if (false)' }],
    kills: [`${SANDBOX} › caps a file at 1 MiB, appends included`],
  },
  {
    id: 'scratch-folder-file-count',
    protects: 'the scratch folder holds at most 1,000 files in all',
    edits: [
      {
        file: SCRATCH,
        find: '    if (existing === null && used.files >= SANDBOX_MAX_FILES)',
        replace: '    if (false)',
      },
    ],
    kills: [
      `${SANDBOX} › caps the folder at 1,000 files in all, subfolders included, yet lets a file there be rewritten`,
    ],
  },
  {
    id: 'scratch-folder-bytes',
    protects: 'the scratch folder holds at most 50 MiB in all',
    edits: [
      {
        file: SCRATCH,
        find: '    if (used.bytes - before + after > SANDBOX_MAX_BYTES)',
        replace: '    if (false)',
      },
    ],
    kills: [`${SANDBOX} › caps the folder at 50 MiB in all, appends included`],
  },
  {
    id: 'scratch-file-mode',
    protects: 'scratch files are 0600',
    edits: [
      {
        file: SCRATCH,
        find: '    const fd = openSync(file, flags, 0o600);',
        replace: '    const fd = openSync(file, flags, 0o666);',
      },
    ],
    kills: [
      `${SANDBOX} › saves, appends, lists and reads back files in folders, with mode 0600, reads fenced as data`,
    ],
  },
  {
    id: 'agent-fence',
    protects: 'page content, files and notes reach the model fenced as untrusted data',
    edits: [
      {
        file: 'packages/tools/src/untrusted.ts',
        find: '  return `${open}\\n${safe}\\n${UNTRUSTED_CLOSE}`;',
        replace: '  return safe;',
      },
    ],
    kills: [
      `${SANDBOX} › saves, appends, lists and reads back files in folders, with mode 0600, reads fenced as data`,
      `${TURN} › gives the model the page text of a reply inside the untrusted-data fence, its own words outside`,
    ],
  },
  {
    id: 'notes-per-chat',
    protects: 'each chat reads, writes and forgets only its own notes',
    edits: [
      {
        file: 'packages/agent/src/tools/notes.ts',
        find: '  if (context.sharedNotes) return file.shared;',
        replace: '  return file.shared;',
      },
    ],
    kills: [
      NOTES_PER_CHAT,
      'packages/agent/test/tools/notes.test.ts › notes › keeps a note to the chat that wrote it: another chat neither recalls nor forgets it',
    ],
  },
  {
    id: 'notes-shared-off-by-default',
    protects: 'notes are shared across chats only when the user turned it on',
    edits: [
      {
        file: 'packages/agent/src/config/agent-config.ts',
        find: '    sharedNotes: file.sharedNotes === true,',
        replace: '    sharedNotes: file.sharedNotes !== false,',
      },
    ],
    kills: [
      'packages/cli/test/agent-config.test.ts › bproxy agent config › shares notes across chats only when the user says so, with or without a provider',
    ],
  },
  {
    id: 'exfil-navigation-refused',
    protects: 'a navigation to another site carrying what the chat recalled or read is refused',
    edits: [
      {
        file: 'packages/agent/src/tools/toolbox.ts',
        find: '    if (refusal !== null) return refusal;',
        replace: '    void refusal;',
      },
    ],
    kills: [REFUSED, AFTER_RESTART],
  },
  {
    id: 'exfil-file-read-tracked',
    protects: 'what read_file returned counts as read',
    edits: [{ file: SCRATCH, find: '      read: [slice],\n', replace: '' }],
    kills: [REFUSED],
  },
  {
    id: 'exfil-recall-tracked',
    protects: 'what recall returned counts as read',
    edits: [
      {
        file: 'packages/agent/src/tools/notes.ts',
        find: '          read: chosen.map(([, n]) => n.text),\n',
        replace: '',
      },
    ],
    kills: [REFUSED],
  },
  {
    id: 'exfil-reads-after-restart',
    protects: 'a chat remembers what it read across host restarts, from its stored transcript',
    edits: [
      {
        file: 'packages/agent/src/runner.ts',
        find: '      this.deps.toolbox.noteRead(this.chatId, storedReads(this.chat));',
        replace: '',
      },
    ],
    kills: [AFTER_RESTART],
  },
  {
    id: 'agent-hidden-tools',
    protects: 'the agent is not offered session_resume',
    edits: [
      { file: 'packages/agent/src/tools/browser-tools.ts', find: "  'session_resume',\n", replace: '' },
    ],
    kills: [
      `${SETTINGS} › hides the tools that make no sense in a shared tab: session_resume and the daemon-wide debug tools`,
    ],
  },
  {
    id: 'agent-switched-off',
    protects: 'a tool the user switched off is refused without reaching the daemon',
    edits: [
      {
        file: 'packages/agent/src/tools/toolbox.ts',
        find: '    return this.has(name) && switches[name] !== false;',
        replace: '    return this.has(name);',
      },
    ],
    kills: [
      `${SETTINGS} › never offers a switched-off tool, and refuses a call to it without reaching the daemon`,
    ],
  },
  {
    id: 'claude-code-strict-mcp',
    protects: "Claude Code gets none of the user's own MCP servers",
    edits: [
      {
        file: 'packages/agent/src/providers/claude-code.ts',
        find: "    '--strict-mcp-config',\n",
        replace: '',
      },
    ],
    kills: [
      'packages/agent/test/providers/claude-code.test.ts › the Claude Code provider › sends the prompt on stdin, binds bproxy mcp to the session, switches off its own tools, and resumes its session',
    ],
  },
  {
    id: 'copilot-only-our-tools',
    protects: 'Copilot is offered only our tools',
    edits: [
      {
        file: 'packages/agent/src/providers/copilot.ts',
        find: "      availableTools: new ToolSet().addCustom('*').toArray(),",
        replace: '      availableTools: undefined,',
      },
    ],
    kills: [
      'packages/agent/test/providers/copilot.test.ts › the Copilot provider › offers only our tools, runs a tool call through the daemon, and resumes the chat after a restart',
    ],
  },
  {
    id: 'agent-log-no-content',
    protects: 'the agent logs events, codes, counts and timings, never page content',
    edits: [
      {
        file: 'packages/agent/src/turn.ts',
        find: '    code: run.code,\n',
        replace: '    code: run.code,\n    result: run.content,\n',
      },
    ],
    kills: [
      `${TURN} › logs a turn's events, codes, counts and timings, never the key, the prompt, page text or the model's words`,
    ],
  },
  {
    id: 'copilot-permissions-refused',
    protects: "every permission request of Copilot's own (a shell command, a file write) is refused",
    edits: [
      {
        file: 'packages/agent/src/providers/copilot.ts',
        find: "      onPermissionRequest: () => ({ kind: 'reject' as const }),",
        replace: "      onPermissionRequest: () => ({ kind: 'approve-once' as const }),",
      },
    ],
    kills: [
      "packages/agent/test/providers/copilot.test.ts › the Copilot provider › refuses every permission request of Copilot's own, such as a shell command",
    ],
  },
  {
    id: 'agent-key-not-in-argv',
    protects: 'bproxy agent config takes no key on the command line',
    edits: [
      {
        file: 'packages/cli/src/commands/agent.ts',
        find: "    .option('--key-stdin', 'read the key from stdin')",
        replace:
          "    .option('--key-stdin', 'read the key from stdin')\n    .option('--key <KEY>', 'the key')",
      },
    ],
    kills: [
      'packages/cli/test/agent-config.test.ts › bproxy agent config › reads the key from a named environment variable, and takes no key on the command line',
    ],
  },
];
