/**
 * The MCP client configurations: each client's file on Linux, macOS and Windows (the platform
 * injected), the merge into JSON and TOML keeping the user's entries, refusals of what does not
 * parse, and the write: backup first (0600), the mode kept, nothing written when nothing changes.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigRefused,
  MCP_CLIENTS,
  configFile,
  mergeJson,
  mergeToml,
  skillFile,
  snippet,
  writeMerged,
  type Place,
} from '../../src/mcp/client-config';

const launch = {
  command: '/opt/node/bin/node',
  args: ['/opt/lib/node_modules/bproxy/bin/bproxy.mjs', 'mcp'],
};
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const scratch = (): string => {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-mcp-config-'));
  roots.push(root);
  return root;
};

describe('where each client keeps its configuration', () => {
  const linux: Place = { platform: 'linux', env: {}, home: '/home/user' };
  const mac: Place = { platform: 'darwin', env: {}, home: '/Users/user' };
  const windows: Place = {
    platform: 'win32',
    env: { APPDATA: 'C:\\Users\\user\\AppData\\Roaming' },
    home: 'C:\\Users\\user',
  };

  it('Linux: home and XDG folders', () => {
    expect(MCP_CLIENTS.map((client) => configFile(client, linux))).toEqual([
      '/home/user/.claude.json',
      '/home/user/.config/Claude/claude_desktop_config.json',
      '/home/user/.cursor/mcp.json',
      '/home/user/.config/Code/User/mcp.json',
      '/home/user/.codex/config.toml',
    ]);
    const xdg: Place = { ...linux, env: { XDG_CONFIG_HOME: '/cfg', CODEX_HOME: '/cx' } };
    expect(configFile('vscode', xdg)).toBe('/cfg/Code/User/mcp.json');
    expect(configFile('claude-desktop', xdg)).toBe('/cfg/Claude/claude_desktop_config.json');
    expect(configFile('codex', xdg)).toBe('/cx/config.toml');
    const claudeDir: Place = { ...linux, env: { CLAUDE_CONFIG_DIR: '/opt/claude' } };
    expect(configFile('claude-code', claudeDir)).toBe('/opt/claude/.claude.json');
    expect(skillFile('claude-code', claudeDir)).toBe('/opt/claude/skills/bproxy/SKILL.md');
  });

  it('macOS: Application Support', () => {
    expect(MCP_CLIENTS.map((client) => configFile(client, mac))).toEqual([
      '/Users/user/.claude.json',
      '/Users/user/Library/Application Support/Claude/claude_desktop_config.json',
      '/Users/user/.cursor/mcp.json',
      '/Users/user/Library/Application Support/Code/User/mcp.json',
      '/Users/user/.codex/config.toml',
    ]);
  });

  it('Windows: %APPDATA% and backslashes', () => {
    expect(MCP_CLIENTS.map((client) => configFile(client, windows))).toEqual([
      'C:\\Users\\user\\.claude.json',
      'C:\\Users\\user\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
      'C:\\Users\\user\\.cursor\\mcp.json',
      'C:\\Users\\user\\AppData\\Roaming\\Code\\User\\mcp.json',
      'C:\\Users\\user\\.codex\\config.toml',
    ]);
    expect(configFile('vscode', { ...windows, env: {} })).toBe(
      'C:\\Users\\user\\AppData\\Roaming\\Code\\User\\mcp.json',
    );
  });

  it('skills: Claude Code and Codex only', () => {
    expect(skillFile('claude-code', linux)).toBe('/home/user/.claude/skills/bproxy/SKILL.md');
    expect(skillFile('codex', mac)).toBe('/Users/user/.agents/skills/bproxy/SKILL.md');
    expect(skillFile('claude-code', windows)).toBe('C:\\Users\\user\\.claude\\skills\\bproxy\\SKILL.md');
    for (const client of ['claude-desktop', 'cursor', 'vscode'] as const)
      expect(skillFile(client, linux)).toBeUndefined();
  });
});

describe('snippets', () => {
  it('are the entry with absolute paths, in each client’s shape', () => {
    expect(JSON.parse(snippet('cursor', launch, 'linux'))).toEqual({ mcpServers: { bproxy: launch } });
    expect(JSON.parse(snippet('vscode', launch, 'linux'))).toEqual({
      servers: { bproxy: { type: 'stdio', ...launch } },
    });
    expect(snippet('codex', launch, 'linux')).toBe(
      '[mcp_servers.bproxy]\ncommand = "/opt/node/bin/node"\nargs = ["/opt/lib/node_modules/bproxy/bin/bproxy.mjs", "mcp"]\n',
    );
    expect(snippet('claude-code', launch, 'linux')).toBe(
      'claude mcp add --scope user bproxy -- /opt/node/bin/node /opt/lib/node_modules/bproxy/bin/bproxy.mjs mcp\n',
    );
    const spaced = { command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\b\\bproxy.mjs', 'mcp'] };
    expect(snippet('claude-code', spaced, 'win32')).toContain('-- "C:\\Program Files\\nodejs\\node.exe" ');
    expect(snippet('claude-code', { ...spaced, command: "/a b/it's" }, 'darwin')).toContain(
      `-- '/a b/it'\\''s' `,
    );
    // A Windows path in TOML: backslashes escaped.
    expect(snippet('codex', spaced, 'win32')).toContain(
      'command = "C:\\\\Program Files\\\\nodejs\\\\node.exe"',
    );
  });
});

describe('merging JSON', () => {
  it('keeps every other entry and key, and is idempotent', () => {
    const before = JSON.stringify({ theme: 'dark', mcpServers: { other: { command: 'x' } } });
    const after = mergeJson('cursor', before, launch);
    expect(after).toBeDefined();
    expect(JSON.parse(after ?? '')).toEqual({
      theme: 'dark',
      mcpServers: { other: { command: 'x' }, bproxy: launch },
    });
    expect(mergeJson('cursor', after ?? '', launch)).toBeUndefined();
    expect(JSON.parse(mergeJson('claude-code', '', launch) ?? '')).toEqual({
      mcpServers: { bproxy: { type: 'stdio', ...launch, env: {} } },
    });
  });

  it('replaces a different bproxy entry', () => {
    const before = JSON.stringify({ servers: { bproxy: { command: 'npx', args: ['bproxy', 'mcp'] } } });
    expect(JSON.parse(mergeJson('vscode', before, launch) ?? '')).toEqual({
      servers: { bproxy: { type: 'stdio', ...launch } },
    });
  });

  it('refuses what it cannot read', () => {
    expect(() => mergeJson('cursor', '{ "mcpServers": {', launch)).toThrow(ConfigRefused);
    expect(() => mergeJson('vscode', '// comment\n{}', launch)).toThrow(/not valid JSON/);
    expect(() => mergeJson('cursor', '[]', launch)).toThrow(/top level is not a JSON object/);
    expect(() => mergeJson('cursor', '{"mcpServers": []}', launch)).toThrow(/"mcpServers" is not/);
  });
});

describe('merging TOML', () => {
  const user = `# my settings
model = "o3"
notes = """
[mcp_servers.bproxy] inside a string is not a table
"""

[mcp_servers.other]
command = "x"
args = [
  "a", # a comment
  "b",
]
env = { KEY = "v" }
`;

  it('appends the table, keeps the rest byte for byte, and is idempotent', () => {
    const after = mergeToml(user, launch) ?? '';
    expect(after.startsWith(user)).toBe(true);
    expect(after.slice(user.length)).toBe(`\n${snippet('codex', launch, 'linux')}`);
    expect(mergeToml(after, launch)).toBeUndefined();
    expect(mergeToml('', launch)).toBe(snippet('codex', launch, 'linux'));
  });

  it('replaces an older bproxy table in place, and leaves its sub-tables and what follows', () => {
    const old = `a = 1

[mcp_servers.bproxy]
command = "npx"
args = ["bproxy", "mcp"]
# about the next table
[mcp_servers.bproxy.env]
X = "1"
`;
    const after = mergeToml(old, launch);
    expect(after).toBe(
      `a = 1

${snippet('codex', launch, 'linux')}# about the next table
[mcp_servers.bproxy.env]
X = "1"
`,
    );
    expect(mergeToml(after ?? '', launch)).toBeUndefined();
  });

  it('refuses what it cannot read, and entries it cannot extend', () => {
    for (const bad of [
      'a = "unclosed\n',
      'a = [1, 2\n',
      '[table\n',
      'just words\n',
      'a = """never closed\n',
      'a =\n',
    ])
      expect(() => mergeToml(bad, launch), bad).toThrow(/not TOML this command can read/);
    expect(() => mergeToml('mcp_servers = { bproxy = { command = "x" } }\n', launch)).toThrow(/by hand/);
    expect(() => mergeToml('[mcp_servers]\nbproxy.command = "x"\n', launch)).toThrow(/by hand/);
    expect(() => mergeToml('[mcp_servers.bproxy]\n[mcp_servers.bproxy]\n', launch)).toThrow(/twice/);
    // Other servers written with dotted keys are fine.
    expect(mergeToml('mcp_servers.other.command = "x"\n', launch)).toContain('[mcp_servers.bproxy]');
  });
});

describe('writing a configuration file', () => {
  const now = new Date('2026-11-27T03:04:05.678Z');

  it('backs the file up first (0600), keeps its mode, and writes nothing when nothing changes', () => {
    const dir = scratch();
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{"mcpServers":{"other":{"command":"x"}}}', { mode: 0o600 });
    const first = writeMerged(file, (text) => mergeJson('cursor', text, launch), now);
    expect(first).toEqual({ file, changed: true, backup: `${file}.bproxy-backup-20261127T030405Z` });
    expect(readFileSync(first.backup ?? '', 'utf8')).toBe('{"mcpServers":{"other":{"command":"x"}}}');
    expect(statSync(first.backup ?? '').mode & 0o777).toBe(0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { other: { command: 'x' }, bproxy: launch },
    });
    const second = writeMerged(file, (text) => mergeJson('cursor', text, launch), now);
    expect(second).toEqual({ file, changed: false });
    expect(readdirSync(dir).sort()).toEqual(['mcp.json', 'mcp.json.bproxy-backup-20261127T030405Z']);
  });

  it('never overwrites an earlier backup of the same second', () => {
    const dir = scratch();
    const file = join(dir, 'config.toml');
    writeFileSync(file, 'a = 1\n', { mode: 0o644 });
    writeMerged(file, (text) => mergeToml(text, launch), now);
    writeFileSync(file, 'a = 2\n', { mode: 0o644 });
    const again = writeMerged(file, (text) => mergeToml(text, launch), now);
    expect(again.backup).toBe(`${file}.bproxy-backup-20261127T030405Z-1`);
    expect(readFileSync(again.backup ?? '', 'utf8')).toBe('a = 2\n');
    expect(statSync(again.backup ?? '').mode & 0o777).toBe(0o600);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });

  it('creates a missing file (0600) and its folders, with no backup', () => {
    const dir = scratch();
    const file = join(dir, 'a', 'b', 'mcp.json');
    expect(writeMerged(file, (text) => mergeJson('vscode', text, launch), now)).toEqual({
      file,
      changed: true,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('leaves a file it cannot parse exactly as it was, with no backup', () => {
    const dir = scratch();
    const file = join(dir, 'mcp.json');
    writeFileSync(file, '{ broken', { mode: 0o644 });
    expect(() => writeMerged(file, (text) => mergeJson('cursor', text, launch), now)).toThrow(ConfigRefused);
    expect(readFileSync(file, 'utf8')).toBe('{ broken');
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });

  it('follows a symbolic link to the real file', () => {
    const dir = scratch();
    mkdirSync(join(dir, 'dotfiles'));
    const real = join(dir, 'dotfiles', 'mcp.json');
    writeFileSync(real, '{}');
    symlinkSync(real, join(dir, 'mcp.json'));
    writeMerged(join(dir, 'mcp.json'), (text) => mergeJson('cursor', text, launch), now);
    expect(JSON.parse(readFileSync(real, 'utf8'))).toEqual({ mcpServers: { bproxy: launch } });
    expect(existsSync(`${real}.bproxy-backup-20261127T030405Z`)).toBe(true);
  });
});

describe('the README’s hand-written entries', () => {
  const readme = readFileSync(
    join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'README.md'),
    'utf8',
  );
  const section = readme.slice(readme.indexOf('## MCP server'), readme.indexOf('### Against the peers'));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({
    lang: m[1],
    body: m[2] ?? '',
  }));
  const installed = { command: 'bproxy', args: ['mcp'] };
  const body = (text: string) => text.replace(/^\/\/.*\n/, '');

  it('are what `mcp config` writes, with the installed `bproxy` as the command', () => {
    const json = blocks.filter((b) => b.lang === 'jsonc').map((b) => JSON.parse(body(b.body)) as unknown);
    expect(json).toEqual([
      JSON.parse(snippet('cursor', installed, 'linux')),
      JSON.parse(snippet('vscode', installed, 'linux')),
    ]);
    expect(blocks.find((b) => b.lang === 'toml')?.body.replace(/^#.*\n/, '')).toBe(
      snippet('codex', installed, 'linux'),
    );
    expect(blocks.find((b) => b.lang === 'sh')?.body).toContain(snippet('claude-code', installed, 'linux'));
  });
});
