import { describe, expect, it } from 'vitest';
import { TOOLS_BY_NAME, checkToolArgs, toolTimeoutMs, type ToolSpec } from '../src/index';

function spec(name: string): ToolSpec {
  const found = TOOLS_BY_NAME.get(name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

const textOf = (checked: ReturnType<typeof checkToolArgs>): string =>
  checked.ok ? '' : checked.reply.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('tool calls', () => {
  it('refuses params the surface owns and asks for the ones a tool requires', () => {
    expect(textOf(checkToolArgs(spec('tab_open'), { url: 'https://a.test/', browser: 'chrome' }))).toBe(
      'BAD_REQUEST: tab_open does not take browser\nWhat to do: Remove it; the server sets it itself',
    );
    expect(textOf(checkToolArgs(spec('tab_select'), {}))).toMatch(/^BAD_REQUEST: tab_select needs tab\n/);
  });

  it('names a bad argument without the params. prefix of the wire', () => {
    const text = textOf(checkToolArgs(spec('click'), { target: 'el3', force: true }));
    expect(text).toMatch(/^BAD_REQUEST: arguments: unknown field\(s\) "force"/);
    expect(text).not.toContain('params');
  });

  it('passes the arguments through unchanged when they fit the action', () => {
    expect(checkToolArgs(spec('tab_open'), { url: 'https://a.test/' })).toEqual({
      ok: true,
      params: { url: 'https://a.test/' },
    });
  });

  it('gives navigations and long waits more time than other tools', () => {
    expect(toolTimeoutMs(spec('click'), {})).toBe(30_000);
    expect(toolTimeoutMs(spec('navigate'), {})).toBe(60_000);
    expect(toolTimeoutMs(spec('wait'), { timeoutMs: 45_000 })).toBe(55_000);
  });
});
