// Removals of the threat model's lines on the user's MCP client files (`bproxy mcp config --write`):
// the backup first and private, no clobber of a file that does not parse, the other entries kept,
// the mode kept, the entry running this installation.

const CONFIG = 'packages/cli/src/mcp/client-config.ts';
const COMMAND = 'packages/cli/src/commands/mcp-config.ts';
const T = 'packages/cli/test/mcp/client-config.test.ts';
const WRITE = `${T} › writing a configuration file`;

/** @type {import('./index.d.mts').Mutant[]} */
export const MUTANTS = [
  {
    id: 'mcp-config-backup-first',
    protects: 'the file is copied aside before it changes',
    edits: [
      {
        file: CONFIG,
        find: "      writeFileSync(candidate, before, { mode: 0o600, flag: 'wx' });\n      chmodSync(candidate, 0o600);\n",
        replace: '',
      },
    ],
    kills: [
      `${WRITE} › backs the file up first (0600), keeps its mode, and writes nothing when nothing changes`,
      `${WRITE} › never overwrites an earlier backup of the same second`,
    ],
  },
  {
    id: 'mcp-config-backup-private',
    protects: 'the backup is 0600 whatever the original mode',
    edits: [
      {
        file: CONFIG,
        find: "      writeFileSync(candidate, before, { mode: 0o600, flag: 'wx' });\n      chmodSync(candidate, 0o600);\n",
        replace:
          "      writeFileSync(candidate, before, { mode: 0o644, flag: 'wx' });\n      chmodSync(candidate, 0o644);\n",
      },
    ],
    kills: [
      `${WRITE} › backs the file up first (0600), keeps its mode, and writes nothing when nothing changes`,
      `${WRITE} › never overwrites an earlier backup of the same second`,
    ],
  },
  {
    id: 'mcp-config-backup-no-overwrite',
    protects: 'a backup never replaces an earlier one',
    edits: [
      { file: CONFIG, find: '      if (existsSync(candidate)) continue;\n', replace: '' },
      { file: CONFIG, find: "{ mode: 0o600, flag: 'wx' }", replace: "{ mode: 0o600, flag: 'w' }" },
    ],
    kills: [`${WRITE} › never overwrites an earlier backup of the same second`],
  },
  {
    id: 'mcp-config-no-clobber-json',
    protects: 'a file that is not JSON is refused and left untouched',
    edits: [
      {
        file: CONFIG,
        find: '      throw new ConfigRefused(\n        `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`,\n      );',
        replace: '      root = {};',
      },
    ],
    kills: [
      `${WRITE} › leaves a file it cannot parse exactly as it was, with no backup`,
      `${T} › merging JSON › refuses what it cannot read`,
      'packages/cli/test/commands/mcp-config.test.ts',
    ],
  },
  {
    id: 'mcp-config-no-clobber-toml',
    protects: 'a file that is not TOML this command reads is refused',
    edits: [
      {
        file: CONFIG,
        find: "    if (eq === null) fail('expected key = value');",
        replace: '    if (eq === null) {\n      at = lineEnd + 1;\n      continue;\n    }',
      },
    ],
    kills: [`${T} › merging TOML › refuses what it cannot read, and entries it cannot extend`],
  },
  {
    id: 'mcp-config-keeps-entries',
    protects: "the user's other entries and keys stay",
    edits: [
      {
        file: CONFIG,
        find: '  const next: JsonObject = { ...root, [key]: { ...servers, [ENTRY_NAME]: entry } };',
        replace: '  const next: JsonObject = { [key]: { [ENTRY_NAME]: entry } };',
      },
      {
        file: CONFIG,
        find: "  if (text === '') return block;\n  return `${text}${text.endsWith('\\n') ? '' : '\\n'}\\n${block}`;",
        replace: '  return block;',
      },
    ],
    kills: [
      `${T} › merging JSON › keeps every other entry and key, and is idempotent`,
      `${T} › merging TOML › appends the table, keeps the rest byte for byte, and is idempotent`,
    ],
  },
  {
    id: 'mcp-config-mode-kept',
    protects: 'the file keeps its mode, and a new one is 0600',
    edits: [
      {
        file: CONFIG,
        find: '  const mode = existing === undefined ? 0o600 : existing.mode & 0o777;',
        replace: '  const mode = 0o644;',
      },
    ],
    kills: [
      `${WRITE} › backs the file up first (0600), keeps its mode, and writes nothing when nothing changes`,
      `${WRITE} › creates a missing file (0600) and its folders, with no backup`,
    ],
  },
  {
    id: 'mcp-config-absolute-entry',
    protects: 'the entry runs this Node and this installation, not a registry name',
    build: true,
    edits: [
      {
        file: COMMAND,
        find: "  return { command: process.execPath, args: [entry, 'mcp'] };",
        replace: "  return { command: 'npx', args: ['bproxy', 'mcp'] };",
      },
    ],
    kills: [
      'packages/cli/test/commands/mcp-config.test.ts › bproxy mcp config › prints the entry with this Node and this build as absolute paths, and it runs from any folder',
    ],
  },
];
