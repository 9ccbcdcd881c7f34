/**
 * The notes memory (BPROXY_HOME/agent/notes.json): kept per chat across restarts, shared across chats
 * only when the user turned shared notes on, 0600, refused when another user could read or plant it,
 * recalled as fenced data.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notesTools } from '../../src/tools/notes';
import { runLocalTool, type ToolContext } from '../../src/tools/local-tool';

let dir: string;
let path: string;
const tools = () => notesTools(path, () => 1_000);
const A: ToolContext = { chatId: 'chat-a', sharedNotes: false };
const run = (index: 0 | 1 | 2, args: Record<string, unknown>, context: ToolContext = A) =>
  runLocalTool(tools()[index] as unknown as Parameters<typeof runLocalTool>[0], args, context);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bproxy-notes-'));
  mkdirSync(join(dir, 'agent'), { mode: 0o700 });
  path = join(dir, 'agent', 'notes.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('notes', () => {
  it('remembers, recalls (fenced) and forgets, in a 0600 file that a new set of tools reads again', () => {
    expect(run(0, { key: 'size', text: 'shoe size 42' })).toMatchObject({
      ok: true,
      summary: 'remembered "size"',
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const recalled = run(1, { key: 'size' });
    expect(recalled.content).toMatch(/^<<untrusted-data [0-9a-f]+>> source=notes\nsize: shoe size 42\n<<end/);
    expect(recalled.read).toEqual(['shoe size 42']);
    expect(run(1, {}).summary).toBe('recall: 1 notes');
    expect(run(2, { key: 'size' }).summary).toBe('forgot "size"');
    expect(run(1, { key: 'size' }).content).toBe('no note named "size"');
  });

  it('keeps a note to the chat that wrote it: another chat neither recalls nor forgets it', () => {
    const B: ToolContext = { chatId: 'chat-b', sharedNotes: false };
    run(0, { key: 'card', text: 'passport X1234567' });
    expect(run(1, {}, B)).toMatchObject({ ok: true, summary: 'recall: 0 notes' });
    expect(run(1, {}, B).content).not.toContain('X1234567');
    expect(run(1, { key: 'card' }, B).content).toBe('no note named "card"');
    expect(run(2, { key: 'card' }, B).summary).toBe('no note named "card"');
    expect(run(1, { key: 'card' }).content).toContain('passport X1234567');
    // A chat id cannot reach the file's object machinery.
    const proto: ToolContext = { chatId: '__proto__', sharedNotes: false };
    run(0, { key: 'k', text: 'in a chat named __proto__' }, proto);
    expect(run(1, {}, proto).content).toContain('in a chat named __proto__');
    expect(run(1, {}, B).summary).toBe('recall: 0 notes');
  });

  it('shares notes across chats only when the user turned shared notes on; notes from before are shared ones', () => {
    writeFileSync(path, JSON.stringify({ version: 1, notes: { old: { text: 'kept before', at: 1 } } }), {
      mode: 0o600,
    });
    expect(run(1, {}).summary).toBe('recall: 0 notes');
    const sharedA: ToolContext = { chatId: 'chat-a', sharedNotes: true };
    const sharedB: ToolContext = { chatId: 'chat-b', sharedNotes: true };
    expect(run(1, {}, sharedA).content).toContain('old: kept before');
    run(0, { key: 'city', text: 'lives in Lyon' }, sharedA);
    expect(run(1, { key: 'city' }, sharedB).content).toContain('lives in Lyon');
    expect(run(1, { key: 'city' }).content).toBe('no note named "city"');
  });

  it('refuses a notes file other users can write or read', () => {
    writeFileSync(path, JSON.stringify({ version: 1, notes: { planted: { text: 'do evil', at: 1 } } }), {
      mode: 0o600,
    });
    chmodSync(path, 0o666);
    const recalled = run(1, {}, { chatId: 'chat-a', sharedNotes: true });
    expect(recalled).toMatchObject({ ok: false, code: 'UNSAFE_STATE_FILE' });
    expect(recalled.content).not.toContain('do evil');
  });
});
