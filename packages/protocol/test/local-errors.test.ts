import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, LOCAL_ERROR_CATALOGUE, isLocalErrorCode, localHint } from '../src/plain';

const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');

function readmeRows(): Map<string, string> {
  const start = readme.indexOf('<!-- local-errors:start -->');
  const end = readme.indexOf('<!-- local-errors:end -->');
  const rows = new Map<string, string>();
  for (const line of readme.slice(start, end).split('\n')) {
    const cells = line
      .trim()
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    const code = /^`([A-Z_]+)`$/.exec(cells[0] ?? '')?.[1];
    if (code) rows.set(code, cells[1] ?? '');
  }
  return rows;
}

describe('local error catalogue', () => {
  it("is exactly the README's local errors table, row for row", () => {
    const rows = readmeRows();
    expect([...rows.keys()]).toEqual(Object.keys(LOCAL_ERROR_CATALOGUE));
    for (const [code, spec] of Object.entries(LOCAL_ERROR_CATALOGUE))
      expect(rows.get(code), code).toBe(spec.when);
  });

  it('shares no code with the wire catalogue, and gives every code a hint', () => {
    for (const code of Object.keys(LOCAL_ERROR_CATALOGUE)) {
      expect(Object.keys(ERROR_CATALOGUE)).not.toContain(code);
      expect(isLocalErrorCode(code)).toBe(true);
      if (isLocalErrorCode(code)) expect(localHint(code).length).toBeGreaterThan(0);
    }
    expect(isLocalErrorCode('TIMEOUT')).toBe(false);
  });
});
