import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACTION_FACTS, ACTION_NAMES, ACTIONS, actionGroup, isErrorCode } from '@bproxy/protocol';
import { checkToolArgs } from '../src/tool-call';
import { buildTools, TOOL_SPECS } from '../src/catalogue';
import { NO_TOOL, TOOL_OVERRIDES, type ToolOverride } from '../src/tool-overrides';
import { errorReply, localError, TOOL_HINTS } from '../src/errors';
import { successReply } from '../src/replies';
import { UNTRUSTED_CLOSE, UNTRUSTED_OPEN } from '../src/untrusted';

describe('MCP tool list', () => {
  const tools = buildTools();

  it('derives one tool per spec from the protocol, with strict input schemas', () => {
    expect(tools.map((t) => t.name)).toEqual(TOOL_SPECS.map((s) => s.name));
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.description.length).toBeGreaterThan(0);
    }
    for (const spec of TOOL_SPECS) expect(Object.keys(ACTIONS)).toContain(spec.action);
  });

  it('makes every action a tool by default: its name with _ for ., its summary, unless an override says otherwise', () => {
    const overrides: Partial<Record<string, ToolOverride | typeof NO_TOOL>> = TOOL_OVERRIDES;
    for (const action of ACTION_NAMES) {
      const override = overrides[action] ?? {};
      const tool = TOOL_SPECS.find((spec) => spec.action === action);
      if (override === NO_TOOL) {
        expect(tool).toBeUndefined();
        continue;
      }
      expect(tool?.name).toBe(override.name ?? action.replaceAll('.', '_'));
      expect(tool?.description).toBe(override.description ?? ACTION_FACTS[action].summary);
    }
  });

  it('hides params the server owns and requires what a tool needs', () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    const open = byName.get('tab_open')?.inputSchema.properties as Record<string, unknown>;
    expect(open).not.toHaveProperty('browser');
    expect(open).toHaveProperty('url');
    const select = byName.get('tab_select')?.inputSchema;
    expect(select?.properties).not.toHaveProperty('pacing');
    expect(select?.required).toEqual(['tab']);
    const click = byName.get('click')?.inputSchema;
    expect(click?.required).toEqual(['target']);
  });

  it('never exposes a session parameter: the server owns the session', () => {
    for (const tool of tools) expect(tool.inputSchema.properties ?? {}).not.toHaveProperty('session');
  });

  it("keeps every tool a client has received, byte for byte and in order (test/tools-list.json); a new action's tool comes after them", () => {
    const pinned: unknown = JSON.parse(readFileSync(new URL('tools-list.json', import.meta.url), 'utf8'));
    if (!Array.isArray(pinned)) throw new Error('tools-list.json holds no list');
    expect(JSON.stringify(tools.slice(0, pinned.length))).toBe(JSON.stringify(pinned));
    const known = new Set(pinned.map((tool: { name?: unknown }) => tool.name));
    for (const tool of tools.slice(pinned.length)) expect(known.has(tool.name)).toBe(false);
  });

  it("puts every tool in its action's capability group, the debug tools out of core", () => {
    for (const spec of TOOL_SPECS) expect(spec.group).toBe(actionGroup(spec.action));
    const core = buildTools(new Set(['core'])).map((t) => t.name);
    expect(core).toContain('navigate');
    expect(core).toContain('click');
    expect(core).not.toContain('debug_last');
    expect(core).not.toContain('debug_log');
  });

  it('shows a model no string-length bounds or guard maxima, and checks them all the same', () => {
    const text = JSON.stringify(tools);
    expect(text).not.toContain('maxLength');
    expect(text).not.toContain('"maximum":100000000');
    const click = TOOL_SPECS.find((s) => s.name === 'click');
    if (click === undefined) throw new Error('no click tool');
    const tooLong = checkToolArgs(click, { target: { selector: 'x'.repeat(2001) } });
    expect(tooLong.ok).toBe(false);
    const badHandle = checkToolArgs(click, { target: 'el0' });
    expect(badHandle.ok).toBe(false);
  });
});

describe('MCP error replies', () => {
  it("says the code, the reason of a pause and what to do with this server's tools", () => {
    const reply = errorReply({
      code: 'HUMAN_REQUIRED',
      message: 'session paused',
      reason: 'reCAPTCHA widget',
      hint: 'cli hint',
    });
    expect(reply.isError).toBe(true);
    const text = reply.content[0]?.type === 'text' ? reply.content[0].text : '';
    expect(text).toContain('HUMAN_REQUIRED: session paused');
    expect(text).toContain('Reason: reCAPTCHA widget');
    expect(text).toContain('session_resume');
    expect(text).not.toContain('cli hint');
  });

  it("falls back to the catalogue hint, and keeps a local error's own hint", () => {
    const unknown = errorReply({
      code: 'PAGE_NOT_SCRIPTABLE',
      message: 'no',
      hint: 'Navigate to a web page first',
    });
    expect(unknown.content[0]).toMatchObject({
      text: expect.stringContaining('What to do: Navigate to a web page first'),
    });
    const local = localError('BAD_REQUEST', 'x is wrong', 'pass y');
    expect(local.content[0]).toMatchObject({ text: 'BAD_REQUEST: x is wrong\nWhat to do: pass y' });
  });

  it('has MCP wording only for codes of the catalogue', () => {
    for (const [code, hint] of Object.entries(TOOL_HINTS)) {
      if (!isErrorCode(code)) throw new Error(`${code} is not in the catalogue`);
      const text = errorReply({ code, message: 'm' }).content[0];
      expect(text).toMatchObject({ text: expect.stringContaining(`What to do: ${hint}`) });
    }
  });
});

describe('MCP success replies', () => {
  const text = (reply: ReturnType<typeof successReply>): string =>
    reply.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('|');
  /** Page text as the replies fence it. */
  const fenced = (page: string): string => `${UNTRUSTED_OPEN}\n${page}\n${UNTRUSTED_CLOSE}`;

  it('names a tab the click opened, so the agent can select it', () => {
    const reply = successReply(
      'click',
      { target: 'el3' },
      {
        url: 'https://a.test/',
        title: 'A',
        navigated: false,
        openedTabs: [{ tab: 't2', url: 'https://a.test/popup' }],
      },
    );
    expect(text(reply)).toBe(
      fenced('clicked el3; opened t2 https://a.test/popup (tab_select t2 to act in it)'),
    );
  });

  it('answers a snapshot diff and the diff an action caused in a few lines', () => {
    const snap = { url: 'u', title: 'T', totalChars: 0, truncated: false };
    expect(
      text(
        successReply('snapshot', { diff: true }, { ...snap, snapshot: '~ text: 2 likes', diff: 'changes' }),
      ),
    ).toBe(fenced('u "T" (changes)\n~ text: 2 likes'));
    expect(
      text(
        successReply(
          'snapshot',
          { diff: true },
          { ...snap, snapshot: '', diff: 'changes', notice: 'No change since your last snapshot.' },
        ),
      ),
    ).toBe(`${fenced('u "T" (changes)')}\n[No change since your last snapshot.]`);
    expect(
      text(
        successReply(
          'snapshot',
          { diff: true },
          { ...snap, snapshot: 'button "Go" [el1]', diff: 'navigated' },
        ),
      ),
    ).toBe(fenced('u "T" (whole: new page)\nbutton "Go" [el1]'));
    const clicked = successReply(
      'click',
      { target: 'el3', diff: true },
      { url: 'u', title: '', navigated: false, diff: { kind: 'changes', snapshot: '+ text: Saved' } },
    );
    expect(text(clicked)).toBe(fenced('clicked el3\n(changes)\n+ text: Saved'));
  });

  it('lists the labels of an annotated screenshot after its image', () => {
    const image = { mimeType: 'image/png' as const, data: 'AA==', width: 10, height: 10 };
    const labelled = successReply(
      'screenshot',
      { annotate: true },
      { ...image, annotations: [{ handle: 'el1', name: 'Go', x: 1, y: 2, width: 3, height: 4 }] },
    );
    expect(text(labelled)).toBe(`[image]|${fenced('labelled: el1 "Go" @1,2')}`);
    expect(text(successReply('screenshot', {}, image))).toBe('[image]');
  });

  it('says when the page got synthetic input instead of trusted input', () => {
    const reply = successReply('type', {}, { url: 'u', title: '', navigated: false, input: 'synthetic' });
    expect(text(reply)).toMatch(/^typed into the focus \(synthetic input: /);
  });

  it('says in one short line how many runs of hidden text a read left out, and nothing when none', () => {
    const read = { url: 'u', title: '', text: 'hello', totalChars: 5, truncated: false };
    expect(text(successReply('text', {}, { ...read, hiddenBlocks: 3 }))).toBe(
      `${fenced('hello')}\n(hidden text left out: 3 blocks)`,
    );
    expect(text(successReply('text', {}, read))).toBe(fenced('hello'));
    const snap = { url: 'u', title: 'T', snapshot: 'h1 "Hi"', totalChars: 7, truncated: false };
    expect(text(successReply('snapshot', {}, { ...snap, hiddenBlocks: 1 }))).toBe(
      `${fenced('u "T"\nh1 "Hi"')}\n(hidden text left out: 1 block)`,
    );
  });

  it("adds the session's notes on lines of their own, to text and image replies alike", () => {
    const notes = ['t2 was closed in the browser; the session is back on t1, the tab that opened it'];
    const read = successReply('text', {}, { url: 'u', title: '', text: 'hello', notes });
    expect(text(read)).toBe(fenced(`hello\nNote: ${notes[0]}`));
    const shot = successReply(
      'screenshot',
      {},
      { mimeType: 'image/png', data: 'AA==', width: 1, height: 1, notes },
    );
    expect(text(shot)).toBe(`[image]|${fenced(`Note: ${notes[0]}`)}`);
  });
});
