/**
 * `bproxy mcp config CLIENT [--write]` as a real process, each client into its own temporary HOME:
 * the printed entry names this Node and this build with absolute paths (and runs from another
 * folder), --write creates or merges the client's real file keeping the user's entries, backs it up
 * first, refuses a malformed file and leaves it untouched, changes nothing on a second run, and
 * installs the skill for the clients that load skills unless --no-skill.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skillText } from '../../src/commands/agents-guide';
import { MCP_CLIENTS, type McpClient } from '../../src/mcp/client-config';
import { createHarness, type Harness } from '../helpers/cli-harness';

let h: Harness;
const roots: string[] = [];
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(async () => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  await h.cleanup();
});

function home(): string {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-mcp-config-home-'));
  roots.push(root);
  return root;
}

/** The file each client reads, under a Linux HOME (XDG_CONFIG_HOME unset). */
const FILES: Record<McpClient, string> = {
  'claude-code': '.claude.json',
  'claude-desktop': '.config/Claude/claude_desktop_config.json',
  cursor: '.cursor/mcp.json',
  vscode: '.config/Code/User/mcp.json',
  codex: '.codex/config.toml',
};

const SKILLS: Partial<Record<McpClient, string>> = {
  'claude-code': '.claude/skills/bproxy/SKILL.md',
  codex: '.agents/skills/bproxy/SKILL.md',
};

/** The entry of a written file, as the client reads it. */
function entryOf(client: McpClient, text: string): { command: string; args: string[] } {
  if (client === 'codex') {
    const block = text.slice(text.indexOf('[mcp_servers.bproxy]'));
    const command = /^command = (".*")$/m.exec(block)?.[1];
    const args = /^args = (\[.*\])$/m.exec(block)?.[1];
    return { command: JSON.parse(command ?? 'null') as string, args: JSON.parse(args ?? 'null') as string[] };
  }
  const root = JSON.parse(text) as Record<string, Record<string, { command: string; args: string[] }>>;
  const entry = root[client === 'vscode' ? 'servers' : 'mcpServers']?.bproxy;
  if (entry === undefined) throw new Error(`no bproxy entry in ${text}`);
  return entry;
}

describe('bproxy mcp config', () => {
  it('prints the entry with this Node and this build as absolute paths, and it runs from any folder', async () => {
    const r = await h.run(['mcp', 'config', 'cursor'], { env: { HOME: home() } });
    expect(r.code).toBe(0);
    const entry = JSON.parse(r.stdout) as { mcpServers: { bproxy: { command: string; args: string[] } } };
    const { command, args } = entry.mcpServers.bproxy;
    expect(command).toBe(process.execPath);
    expect(args).toEqual([realpathSync(h.cli), 'mcp']);
    // The same program, asked for its version from an unrelated folder.
    const version = execFileSync(command, [args[0] ?? '', '--version'], { cwd: home(), encoding: 'utf8' });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const codex = await h.run(['mcp', 'config', 'codex'], { env: { HOME: home() } });
    expect(codex.stdout).toContain('[mcp_servers.bproxy]\ncommand = ');
    const claude = await h.run(['mcp', 'config', 'claude-code'], { env: { HOME: home() } });
    expect(claude.stdout).toMatch(/^claude mcp add --scope user bproxy -- \S+ \S+ mcp\n$/);
  }, 30_000);

  it('refuses an unknown client with a usage error that lists the clients', async () => {
    const r = await h.run(['mcp', 'config', 'emacs'], { env: { HOME: home() } });
    expect(r.code).toBe(2);
    const error = (JSON.parse(r.stderr) as { error: { code: string; message: string; hint: string } }).error;
    expect(error).toMatchObject({ code: 'USAGE', message: 'unknown MCP client "emacs"' });
    expect(error.hint).toBe(`Choose one of: ${MCP_CLIENTS.join(', ')}`);
  });

  for (const client of MCP_CLIENTS) {
    it(`${client}: --write creates the file, a second run changes nothing, the skill where it loads`, async () => {
      const dir = home();
      const file = join(dir, FILES[client]);
      const first = await h.run(['mcp', 'config', client, '--write'], { env: { HOME: dir } });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const out = JSON.parse(first.stdout) as {
        file: string;
        changed: boolean;
        backup?: string;
        skill: unknown;
      };
      expect(out).toMatchObject({ client, file, changed: true });
      expect(out.backup).toBeUndefined();
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(entryOf(client, readFileSync(file, 'utf8'))).toMatchObject({
        command: process.execPath,
        args: [realpathSync(h.cli), 'mcp'],
      });
      const skill = SKILLS[client];
      if (skill === undefined) expect(out.skill).toBeNull();
      else {
        expect(out.skill).toEqual({ file: join(dir, skill), changed: true });
        expect(readFileSync(join(dir, skill), 'utf8')).toBe(skillText());
      }
      const before = readFileSync(file, 'utf8');
      const second = await h.run(['mcp', 'config', client, '--write'], { env: { HOME: dir } });
      expect(second.code).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ changed: false });
      if (skill !== undefined) expect(JSON.parse(second.stdout)).toMatchObject({ skill: { changed: false } });
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(readdirSync(dirname(file)).filter((name) => name.includes('bproxy-backup'))).toEqual([]);
    }, 30_000);

    it(`${client}: --write merges into an existing file after backing it up, and refuses a malformed one`, async () => {
      const dir = home();
      const file = join(dir, FILES[client]);
      mkdirSync(dirname(file), { recursive: true });
      const original =
        client === 'codex'
          ? 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\n'
          : JSON.stringify({
              keep: 1,
              [client === 'vscode' ? 'servers' : 'mcpServers']: { other: { command: 'other' } },
            });
      writeFileSync(file, original, { mode: 0o600 });
      const r = await h.run(['mcp', 'config', client, '--write', '--no-skill'], { env: { HOME: dir } });
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { changed: boolean; backup: string; skill: unknown };
      expect(out.changed).toBe(true);
      expect(out.skill).toBeNull();
      expect(readFileSync(out.backup, 'utf8')).toBe(original);
      expect(statSync(out.backup).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, 'utf8');
      if (client === 'codex') expect(text.startsWith(original)).toBe(true);
      else {
        const root = JSON.parse(text) as Record<string, unknown>;
        expect(root.keep).toBe(1);
        expect(root[client === 'vscode' ? 'servers' : 'mcpServers']).toMatchObject({
          other: { command: 'other' },
        });
      }
      expect(entryOf(client, text).command).toBe(process.execPath);
      expect(existsSync(join(dir, SKILLS[client] ?? 'none'))).toBe(false);

      const broken = client === 'codex' ? '[mcp_servers.other\ncommand = "x"\n' : '{ "mcpServers": { ';
      writeFileSync(file, broken);
      const bad = await h.run(['mcp', 'config', client, '--write'], { env: { HOME: dir } });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('LOCAL_ERROR');
      expect(bad.stderr).toContain(`${file} was left unchanged`);
      expect(readFileSync(file, 'utf8')).toBe(broken);
      expect(readdirSync(dirname(file)).filter((name) => name.includes('bproxy-backup'))).toHaveLength(1);
    }, 30_000);
  }

  it('--write --file writes a project file instead', async () => {
    const dir = home();
    const file = join(dir, 'project', '.vscode', 'mcp.json');
    const r = await h.run(['mcp', 'config', 'vscode', '--write', '--file', file], { env: { HOME: dir } });
    expect(r.code).toBe(0);
    expect(entryOf('vscode', readFileSync(file, 'utf8')).command).toBe(process.execPath);
    expect(existsSync(join(dir, FILES.vscode))).toBe(false);
  });
});
