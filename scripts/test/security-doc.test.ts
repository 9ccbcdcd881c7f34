/**
 * docs/security.md names, for every gate, the tests that prove it. Those names must stay true: each
 * referenced file exists and each title it names (`file › describe › test`) is still written there.
 * Parameterised titles (`%s`, `$name`) are checked by their longest fixed part.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');

/** `path › title › title` references in backticks. */
const references = [
  ...doc.matchAll(/`((?:packages|tests|scripts)\/[^`\s]+\.(?:ts|mjs))((?:\s*›[^`]*)?)`/g),
].map((m) => ({
  file: m[1] ?? '',
  titles: (m[2] ?? '')
    .split('›')
    .map((t) => t.trim())
    .filter((t) => t !== ''),
}));

/** The longest run of a title with no placeholder in it. */
function fixedPart(title: string): string {
  return title
    .split(/%[sdjio]|\$\w+|\(case [^)]*\)/)
    .map((p) => p.trim())
    .reduce((a, b) => (b.length > a.length ? b : a), '');
}

describe('the threat model’s proofs', () => {
  it('names tests at all', () => {
    expect(references.length).toBeGreaterThan(50);
  });

  it.each(references.map((r) => [`${r.file} › ${r.titles.join(' › ')}`, r] as const))(
    'still exist: %s',
    (_name, { file, titles }) => {
      const path = join(ROOT, file);
      expect(existsSync(path), `${file} exists`).toBe(true);
      const source = readFileSync(path, 'utf8');
      for (const title of titles) expect(source, `${file} has “${title}”`).toContain(fixedPart(title));
    },
  );
});
