import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSUMED_SWITCHES, FORWARDED_SWITCHES } from '../src/args/arg-policy';

const readme = readFileSync(join(__dirname, '../../../README.md'), 'utf8');

describe('the written argument policy', () => {
  it("is the README's table of switches that may pass, row for row", () => {
    const table = readme.slice(
      readme.indexOf('<!-- bridge-args:start -->'),
      readme.indexOf('<!-- bridge-args:end -->'),
    );
    const rows = [...table.matchAll(/^\| `(--[a-z-]+)`/gm)].map((m) => m[1]);
    expect(rows).toEqual(FORWARDED_SWITCHES);
  });

  it('names every switch the bridge consumes', () => {
    const section = readme.slice(readme.indexOf('<!-- bridge-args:end -->'));
    for (const name of CONSUMED_SWITCHES) expect(section).toContain(`\`${name}\``);
  });
});
