import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CATALOGUE,
  ACTIONS,
  PAIRING_ERROR_CODES,
  makeError,
  httpStatusOf,
  type ErrorCode,
} from '../src/index';

const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');

function readmeRows(): Map<string, string[]> {
  const start = readme.indexOf('<!-- errors:start -->');
  const end = readme.indexOf('<!-- errors:end -->');
  const rows = new Map<string, string[]>();
  for (const line of readme.slice(start, end).split('\n')) {
    const cells = line
      .trim()
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (code) rows.set(code, cells.slice(1));
  }
  return rows;
}

describe('error catalogue', () => {
  it('is exactly the README error table, row for row', () => {
    const rows = readmeRows();
    expect([...rows.keys()]).toEqual(Object.keys(ERROR_CATALOGUE));
    for (const [code, spec] of Object.entries(ERROR_CATALOGUE)) {
      expect(rows.get(code), code).toEqual([
        spec.category,
        spec.retry ? 'yes' : 'no',
        spec.status === null ? '—' : String(spec.status),
        spec.when,
      ]);
    }
  });

  it('covers every code of the seed tables', () => {
    for (const code of [
      'NO_EXTENSION',
      'TIMEOUT',
      'OVERLOADED',
      'SESSION_REQUIRED',
      'INVALID_SESSION_ID',
      'SESSION_NOT_FOUND',
      'TAB_NOT_FOUND',
      'TAB_HANDLE_NOT_FOUND',
      'TAB_NOT_IN_SESSION',
      'ELEMENT_HANDLE_NOT_FOUND',
      'ELEMENT_HANDLE_STALE',
      'ELEMENT_HANDLE_SCOPE_MISMATCH',
      'HUMAN_REQUIRED',
    ]) {
      expect(Object.keys(ERROR_CATALOGUE)).toContain(code);
    }
  });

  it('holds the codes the clients (CLI, MCP server, in-browser agent, extension) report about their own side, marked client-only', () => {
    const clientOnly = Object.entries(ERROR_CATALOGUE)
      .filter(([, spec]) => spec.status === null)
      .map(([code]) => code);
    expect(clientOnly).toEqual([
      'USAGE',
      'NO_DAEMON',
      'DAEMON_UNREACHABLE',
      'DAEMON_NOT_PROVEN',
      'UNSAFE_STATE_FILE',
      'BAD_RESPONSE',
      'LOCAL_ERROR',
      'AGENT_NOT_CONFIGURED',
      'MODEL_ERROR',
      'CHAT_QUEUE_FULL',
      'TURN_LIMIT',
      'SENSITIVE_NAVIGATION',
      'NO_NATIVE_HOST',
    ]);
    expect(httpStatusOf('USAGE')).toBe(500); // never sent; a daemon that did would be failing
  });

  it('keeps pairing codes out of the protocol catalogue', () => {
    for (const code of PAIRING_ERROR_CODES) expect(Object.keys(ERROR_CATALOGUE)).not.toContain(code);
  });

  it('derives category, retry, hint and status from the code', () => {
    const e = makeError('TIMEOUT', 'late');
    expect(e).toMatchObject({ code: 'TIMEOUT', category: 'transport', retry: true, message: 'late' });
    expect(httpStatusOf('UNAUTHORIZED' as ErrorCode)).toBe(401);
  });

  it('defines every action the daemon issue lists', () => {
    const expected = [
      'session.create',
      'session.list',
      'session.bind',
      'session.unbind',
      'session.resume',
      'session.close',
      'tab.open',
      'tab.close',
      'tab.list',
      'tab.pin',
      'tab.unpin',
      'navigate',
      'back',
      'forward',
      'reload',
      'text',
      'links',
      'elements',
      'inspect',
      'snapshot',
      'scroll',
      'click',
      'hover',
      'fill',
      'type',
      'press',
      'select',
      'wait',
      'screenshot',
      'debug.last',
      'debug.status',
      'debug.log',
    ];
    for (const a of expected) expect(Object.keys(ACTIONS)).toContain(a);
  });
});
