import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSUMED_SWITCHES, FORWARDED_SWITCHES, NEVER_FORWARDED } from '../src/args/arg-policy';

const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');

function between(start: string, end: string): string {
  return readme.slice(readme.indexOf(start), readme.indexOf(end));
}

describe('the written argument policy', () => {
  it("is the README's table of switches that may pass, row for row", () => {
    const table = between('<!-- bridge-args:start -->', '<!-- bridge-args:end -->');
    const rows = [...table.matchAll(/^\| `(--[a-z-]+)`/gm)].map((m) => m[1]);
    expect(rows).toEqual(FORWARDED_SWITCHES);
  });

  it("is the README's table of profiles, and names the switches refused even on the tool's own", () => {
    const table = between('<!-- bridge-profiles:start -->', '<!-- bridge-profiles:end -->');
    const rows = [...table.matchAll(/^\|[^|]*\| `([a-z]+)`\s*\|([^\n]*)\|$/gm)];
    // The owners plan.ts decides between (ProfileOwner), then the attached case, in this order.
    expect(rows.map((m) => m[1])).toEqual(['tool', 'user', 'attached']);
    const refused = [...((rows[0]?.[2] ?? '').split('but')[1]?.matchAll(/`(--[a-z-]+)`/g) ?? [])].map(
      (m) => m[1],
    );
    expect(refused).toEqual(NEVER_FORWARDED);
  });

  it('names every switch the bridge consumes', () => {
    const section = readme.slice(readme.indexOf('<!-- bridge-args:end -->'));
    for (const name of CONSUMED_SWITCHES) expect(section).toContain(`\`${name}\``);
  });
});
