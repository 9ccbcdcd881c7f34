/**
 * `bproxy mcp config CLIENT [--write]`: the MCP entry of each supported client for this installation
 * (this Node binary and this package's entry, as absolute paths, so the client never resolves a
 * `bproxy` of the registry or of its working folder), where each client keeps its configuration on
 * each platform, and the merge into that file: the file is parsed first (a file that does not parse
 * is refused and left untouched), copied aside (0600) before it changes, then replaced at once with
 * the user's other entries kept. A second run finds the entry already there and writes nothing.
 *
 * Where the files are (each client's own documentation):
 * - Claude Code: ~/.claude.json, top-level "mcpServers" (the user scope of `claude mcp add -s user`),
 *   every platform; skills in ~/.claude/skills/NAME/SKILL.md. With CLAUDE_CONFIG_DIR set, Claude
 *   Code keeps both in that folder instead ($CLAUDE_CONFIG_DIR/.claude.json, …/skills).
 * - Claude Desktop: claude_desktop_config.json in ~/Library/Application Support/Claude (macOS),
 *   %APPDATA%\Claude (Windows); on Linux, where there is no official build, $XDG_CONFIG_HOME/Claude.
 * - Cursor: ~/.cursor/mcp.json (global), every platform.
 * - VS Code: the user profile's mcp.json, "servers": ~/Library/Application Support/Code/User (macOS),
 *   %APPDATA%\Code\User (Windows), $XDG_CONFIG_HOME/Code/User (Linux).
 * - Codex: $CODEX_HOME/config.toml (default ~/.codex), table [mcp_servers.NAME]; user skills in
 *   ~/.agents/skills/NAME/SKILL.md.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';

export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

export const isMcpClient = (name: string): name is McpClient =>
  (MCP_CLIENTS as readonly string[]).includes(name);

/** The clients that load skills from a folder of the user's, where `--write` puts SKILL.md. */
export const SKILL_CLIENTS: readonly McpClient[] = ['claude-code', 'codex'];

/** The name of the entry in every client's file, and of the skill folder. */
export const ENTRY_NAME = 'bproxy';

/** How a client starts the server: an absolute program and its arguments. */
export interface Launch {
  readonly command: string;
  readonly args: readonly string[];
}

/** Where the user's files are: injectable, so every platform's branch is tested on any machine. */
export interface Place {
  readonly platform: NodeJS.Platform;
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
}

/** The path module of `platform`: Windows paths are built with backslashes and drive letters. */
export const pathOf = (platform: NodeJS.Platform): path.PlatformPath =>
  platform === 'win32' ? path.win32 : path.posix;

const nonEmpty = (value: string | undefined): value is string => value !== undefined && value !== '';

/** %APPDATA% on Windows (default HOME\AppData\Roaming). */
function appData(place: Place): string {
  const p = pathOf(place.platform);
  return nonEmpty(place.env.APPDATA) ? place.env.APPDATA : p.join(place.home, 'AppData', 'Roaming');
}

/** $XDG_CONFIG_HOME on Linux and the other Unixes (default HOME/.config). */
function xdgConfig(place: Place): string {
  const p = pathOf(place.platform);
  const xdg = place.env.XDG_CONFIG_HOME;
  return nonEmpty(xdg) && p.isAbsolute(xdg) ? xdg : p.join(place.home, '.config');
}

/** The folder of an application's per-user settings: Application Support, %APPDATA% or XDG. */
function appSettings(place: Place, name: string): string {
  const p = pathOf(place.platform);
  if (place.platform === 'darwin') return p.join(place.home, 'Library', 'Application Support', name);
  if (place.platform === 'win32') return p.join(appData(place), name);
  return p.join(xdgConfig(place), name);
}

/** The file `--write` changes for `client`. */
export function configFile(client: McpClient, place: Place): string {
  const p = pathOf(place.platform);
  switch (client) {
    case 'claude-code': {
      const dir = place.env.CLAUDE_CONFIG_DIR;
      return p.join(nonEmpty(dir) ? dir : place.home, '.claude.json');
    }
    case 'claude-desktop':
      return p.join(appSettings(place, 'Claude'), 'claude_desktop_config.json');
    case 'cursor':
      return p.join(place.home, '.cursor', 'mcp.json');
    case 'vscode':
      return p.join(appSettings(place, 'Code'), 'User', 'mcp.json');
    case 'codex': {
      const codexHome = place.env.CODEX_HOME;
      return p.join(nonEmpty(codexHome) ? codexHome : p.join(place.home, '.codex'), 'config.toml');
    }
  }
}

/** Where the skill goes for a client that loads skills, else undefined. */
export function skillFile(client: McpClient, place: Place): string | undefined {
  const p = pathOf(place.platform);
  if (client === 'claude-code') {
    const dir = place.env.CLAUDE_CONFIG_DIR;
    return p.join(nonEmpty(dir) ? dir : p.join(place.home, '.claude'), 'skills', ENTRY_NAME, 'SKILL.md');
  }
  if (client === 'codex') return p.join(place.home, '.agents', 'skills', ENTRY_NAME, 'SKILL.md');
  return undefined;
}

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON value a client keeps for the entry (key: the object holding the servers). */
function jsonEntry(client: Exclude<McpClient, 'codex'>, launch: Launch): { key: string; entry: JsonObject } {
  const base = { command: launch.command, args: [...launch.args] };
  if (client === 'vscode') return { key: 'servers', entry: { type: 'stdio', ...base } };
  if (client === 'claude-code') return { key: 'mcpServers', entry: { type: 'stdio', ...base, env: {} } };
  return { key: 'mcpServers', entry: base };
}

/** A TOML basic string (JSON's escapes are TOML's). */
const tomlString = (text: string): string => JSON.stringify(text);

function tomlBlock(launch: Launch): string {
  return [
    `[mcp_servers.${ENTRY_NAME}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
    '',
  ].join('\n');
}

/** A word for a POSIX shell or PowerShell/cmd, quoted only when it needs to be. */
function shellWord(word: string, platform: NodeJS.Platform): string {
  if (/^[\w@%+=:,./\\-]+$/.test(word)) return word;
  return platform === 'win32' ? `"${word.replace(/"/g, '""')}"` : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** What `bproxy mcp config CLIENT` prints: the exact text to paste (or the command to run). */
export function snippet(client: McpClient, launch: Launch, platform: NodeJS.Platform): string {
  if (client === 'codex') return tomlBlock(launch);
  if (client === 'claude-code') {
    const words = [
      'claude',
      'mcp',
      'add',
      '--scope',
      'user',
      ENTRY_NAME,
      '--',
      launch.command,
      ...launch.args,
    ];
    return `${words.map((word) => shellWord(word, platform)).join(' ')}\n`;
  }
  const { key, entry } = jsonEntry(client, launch);
  return `${JSON.stringify({ [key]: { [ENTRY_NAME]: entry } }, null, 2)}\n`;
}

/** A file `--write` will not change, with the reason (the file is left as it was). */
export class ConfigRefused extends Error {
  override readonly name = 'ConfigRefused';
}

/** The new text of a JSON configuration, or undefined when the entry is already there as it should be. */
export function mergeJson(
  client: Exclude<McpClient, 'codex'>,
  text: string,
  launch: Launch,
): string | undefined {
  const { key, entry } = jsonEntry(client, launch);
  let root: unknown = {};
  if (text.trim() !== '') {
    try {
      root = JSON.parse(text);
    } catch (error) {
      throw new ConfigRefused(
        `it is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
  if (!isObject(root)) throw new ConfigRefused('its top level is not a JSON object');
  const servers = root[key] ?? {};
  if (!isObject(servers)) throw new ConfigRefused(`its "${key}" is not a JSON object`);
  if (isDeepStrictEqual(servers[ENTRY_NAME], entry)) return undefined;
  const next: JsonObject = { ...root, [key]: { ...servers, [ENTRY_NAME]: entry } };
  return `${JSON.stringify(next, null, 2)}\n`;
}

/** A line of a TOML file as far as the merge needs it: a table header (its dotted name) or not. */
interface TomlLine {
  readonly start: number;
  readonly end: number;
  readonly table?: readonly string[];
  /** A key set directly in the table (or at the top level): its dotted name. */
  readonly key?: readonly string[];
}

/** A dotted TOML key ("a.b", a."b c", 'x') as its parts; undefined when it is not one. */
function dottedKey(text: string): string[] | undefined {
  const parts: string[] = [];
  const re = /\s*(?:([A-Za-z0-9_-]+)|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)')\s*(\.|$)/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m === null) return undefined;
    const [whole, bare, basic, literal, dot] = m;
    if (bare !== undefined) parts.push(bare);
    else if (literal !== undefined) parts.push(literal);
    else {
      try {
        parts.push(JSON.parse(`"${basic ?? ''}"`) as string);
      } catch {
        return undefined;
      }
    }
    at += whole.length;
    if (dot === '') break;
  }
  return at === text.length && parts.length > 0 ? parts : undefined;
}

/**
 * Splits TOML into its statements (comments and blank lines, table headers, key = value with values
 * that span lines: arrays, inline tables, multi-line strings). It checks the structure, not every
 * value: anything it cannot read as one of those is refused rather than guessed at.
 */
export function tomlStatements(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  let at = 0;
  let line = 1;
  const fail = (why: string): never => {
    throw new ConfigRefused(`it is not TOML this command can read (line ${line}: ${why})`);
  };
  while (at < text.length) {
    const start = at;
    const eol = text.indexOf('\n', at);
    const lineEnd = eol === -1 ? text.length : eol;
    const raw = text.slice(at, lineEnd).replace(/\r$/, '');
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) {
      at = lineEnd + 1;
      line += 1;
      lines.push({ start, end: Math.min(at, text.length) });
      continue;
    }
    if (trimmed.startsWith('[')) {
      const header = /^\[(\[)?([^[\]]+)\](\])?\s*(#.*)?$/.exec(trimmed);
      if (header === null || (header[1] === undefined) !== (header[3] === undefined)) fail('a table header');
      const name = dottedKey(header?.[2] ?? '') ?? fail('a table name');
      at = lineEnd + 1;
      line += 1;
      lines.push({ start, end: Math.min(at, text.length), table: name });
      continue;
    }
    const eq = /^\s*((?:[A-Za-z0-9_.\s-]|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')+?)\s*=/.exec(raw);
    if (eq === null) fail('expected key = value');
    const key = dottedKey(eq?.[1] ?? '') ?? fail('a key');
    // The value: scan to the end of the statement, through strings, arrays and inline tables.
    let i = at + (eq?.[0].length ?? 0);
    let depth = 0;
    let seen = false;
    for (;;) {
      if (i >= text.length) {
        if (depth > 0) fail('an unclosed array or inline table');
        break;
      }
      const c = text[i];
      if (c === '\n') {
        line += 1;
        if (depth === 0) {
          i += 1;
          break;
        }
        i += 1;
        continue;
      }
      if (c === '#') {
        const next = text.indexOf('\n', i);
        i = next === -1 ? text.length : next;
        continue;
      }
      if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
        const quote = text.slice(i, i + 3);
        let j = i + 3;
        for (;;) {
          const close = text.indexOf(quote, j);
          if (close === -1) fail('an unclosed multi-line string');
          if (quote === '"""' && isEscaped(text, close)) {
            j = close + 1;
            continue;
          }
          j = close + 3;
          while (text[j] === quote[0]) j += 1;
          break;
        }
        line += countNewlines(text.slice(i, j));
        i = j;
        seen = true;
        continue;
      }
      if (c === '"' || c === "'") {
        let j = i + 1;
        for (;;) {
          const d = text[j];
          if (d === undefined || d === '\n') fail('an unclosed string');
          if (c === '"' && d === '\\') j += 2;
          else if (d === c) break;
          else j += 1;
        }
        i = j + 1;
        seen = true;
        continue;
      }
      if (c === '[' || c === '{') depth += 1;
      else if (c === ']' || c === '}') {
        depth -= 1;
        if (depth < 0) fail('an unbalanced bracket');
      }
      if (c !== undefined && !/\s/.test(c)) seen = true;
      i += 1;
    }
    if (!seen) fail('a key with no value');
    lines.push({ start, end: Math.min(i, text.length), key });
    at = i;
  }
  return lines;
}

const countNewlines = (text: string): number => text.split('\n').length - 1;

/** Whether the character at `at` is escaped by an odd run of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let n = 0;
  for (let i = at - 1; i >= 0 && text[i] === '\\'; i -= 1) n += 1;
  return n % 2 === 1;
}

const same = (a: readonly string[] | undefined, b: readonly string[]): boolean =>
  a !== undefined && a.length === b.length && a.every((part, i) => part === b[i]);

/** The new text of Codex's config.toml, or undefined when the entry is already there as it should be. */
export function mergeToml(text: string, launch: Launch): string | undefined {
  const block = tomlBlock(launch);
  const statements = tomlStatements(text);
  const ours = ['mcp_servers', ENTRY_NAME];
  // Where each statement is: the table it belongs to (the top level before any header). Our block
  // runs from its header to its last key (comments after it belong to what follows).
  let table: readonly string[] = [];
  let blockStart: number | undefined;
  let blockEnd: number | undefined;
  for (const statement of statements) {
    if (statement.table !== undefined) {
      table = statement.table;
      if (same(table, ours)) {
        if (blockStart !== undefined) throw new ConfigRefused('it defines [mcp_servers.bproxy] twice');
        blockStart = statement.start;
        blockEnd = statement.end;
      }
      continue;
    }
    if (statement.key === undefined) continue;
    if (same(table, ours)) {
      blockEnd = statement.end;
      continue;
    }
    if (table[0] === 'mcp_servers' && table[1] === ENTRY_NAME) continue;
    const full = [...table, ...statement.key];
    // An entry written some other way (mcp_servers = {…}, mcp_servers.bproxy.command = …): a table
    // header added after it would not be valid TOML, so the file is left for the user to edit.
    if (full[0] === 'mcp_servers' && (full.length === 1 || full[1] === ENTRY_NAME))
      throw new ConfigRefused(
        'it sets mcp_servers or mcp_servers.bproxy with a dotted key or an inline table; edit that entry by hand',
      );
  }
  if (blockStart !== undefined && blockEnd !== undefined) {
    const current = text.slice(blockStart, blockEnd).replace(/\r\n/g, '\n');
    if (current.replace(/\s+$/, '') === block.replace(/\s+$/, '')) return undefined;
    const rest = text.slice(blockEnd);
    return `${text.slice(0, blockStart)}${block}${rest}`;
  }
  if (text === '') return block;
  return `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`;
}

/** The new text of `client`'s file given its current text ('' for a missing file), or undefined. */
export function mergeConfig(client: McpClient, text: string, launch: Launch): string | undefined {
  return client === 'codex' ? mergeToml(text, launch) : mergeJson(client, text, launch);
}

/** What writing one file did. */
export interface FileWrite {
  readonly file: string;
  readonly changed: boolean;
  /** The copy of the file as it was, when there was one and it changed. */
  readonly backup?: string;
}

const stamp = (now: Date): string =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/**
 * Replaces `file` with `merge(current text)`: parsed first (a refusal leaves it untouched), copied
 * aside as FILE.bproxy-backup-STAMP (0600, never overwriting an earlier copy) before the change, and
 * written through a temporary file renamed over it, keeping the file's mode (0600 for a new file). A
 * symbolic link is followed: the file it points to is the one changed.
 */
export function writeMerged(
  file: string,
  merge: (text: string) => string | undefined,
  now: Date = new Date(),
): FileWrite {
  const target = existsSync(file) ? realpathSync(file) : file;
  const existing = existsSync(target) ? statSync(target) : undefined;
  if (existing !== undefined && !existing.isFile()) throw new ConfigRefused('it is not a regular file');
  const before = existing === undefined ? '' : readFileSync(target, 'utf8');
  const after = merge(before);
  if (after === undefined) return { file, changed: false };
  let backup: string | undefined;
  if (existing !== undefined) {
    for (let n = 0; backup === undefined; n += 1) {
      const candidate = `${target}.bproxy-backup-${stamp(now)}${n === 0 ? '' : `-${n}`}`;
      if (existsSync(candidate)) continue;
      writeFileSync(candidate, before, { mode: 0o600, flag: 'wx' });
      chmodSync(candidate, 0o600);
      backup = candidate;
    }
  } else mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const mode = existing === undefined ? 0o600 : existing.mode & 0o777;
  const temporary = `${target}.bproxy-${process.pid}-${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, after, { mode, flag: 'wx' });
    chmodSync(temporary, mode);
    renameSync(temporary, target);
  } catch (error) {
    if (existsSync(temporary)) unlinkSync(temporary);
    throw error;
  }
  return { file, changed: true, ...(backup === undefined ? {} : { backup }) };
}

/** The whole file a skill is: unchanged when equal, else replaced (with a copy of the old one). */
export function writeSkill(file: string, text: string, now: Date = new Date()): FileWrite {
  return writeMerged(file, (current) => (current === text ? undefined : text), now);
}
