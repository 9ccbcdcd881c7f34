/**
 * The in-browser agent's browser tools: `upload` and `drop` are not offered — a page steering the agent could
 * otherwise have it hand the page a file from an allowed folder — and a call naming it reaches no
 * daemon.
 */
import { describe, expect, it } from 'vitest';
import { TOOLS_BY_NAME } from '@bproxy/tools';
import { browserToolDefinitions, isBrowserTool, runBrowserTool } from '../../src/tools/browser-tools';

describe('the browser tools of the in-browser agent', () => {
  it('does not offer upload, and a call naming it reaches no daemon', async () => {
    expect(TOOLS_BY_NAME.has('upload')).toBe(true);
    expect(browserToolDefinitions().map((t) => t.name)).not.toContain('upload');
    expect(isBrowserTool('upload')).toBe(false);
    const calls: string[] = [];
    const caller = {
      call(action: string) {
        calls.push(action);
        return Promise.reject(new Error('not reached'));
      },
    };
    const run = await runBrowserTool(caller, 'upload', { target: 'el1', files: ['a.txt'] }, 'abcdef');
    expect(run).toMatchObject({ ok: false, code: 'UNKNOWN_ACTION' });
    expect(calls).toEqual([]);
    expect(browserToolDefinitions().map((t) => t.name)).toContain('click');
  });

  it('does not offer drop (files onto a drop zone), and a call naming it reaches no daemon', async () => {
    expect(TOOLS_BY_NAME.has('drop')).toBe(true);
    expect(browserToolDefinitions().map((t) => t.name)).not.toContain('drop');
    expect(browserToolDefinitions().map((t) => t.name)).toContain('drag');
    const calls: string[] = [];
    const caller = {
      call(action: string) {
        calls.push(action);
        return Promise.reject(new Error('not reached'));
      },
    };
    const run = await runBrowserTool(caller, 'drop', { target: 'el1', files: ['a.txt'] }, 'abcdef');
    expect(run).toMatchObject({ ok: false, code: 'UNKNOWN_ACTION' });
    expect(calls).toEqual([]);
  });
});
