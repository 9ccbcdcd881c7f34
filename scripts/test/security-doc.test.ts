/**
 * docs/security.md names, for every gate, the tests that prove it. Those names must stay true: each
 * referenced file exists and each title it names (`file › describe › test`) is still written there.
 * Parameterised titles (`%s`, `$name`) are checked by their longest fixed part.
 *
 * And each named test must fail when its protection is removed: scripts/security/mutants/ lists, per
 * protection, the edit that removes it and the tests it must kill (`npm run check:security` runs them).
 * Here, without running them: every reference has a removal; every removal names tests the doc names;
 * every edit still applies to the source, once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../security/mutants/index.mjs';
import { fixedPart, securityReferences } from '../security/refs.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const doc = readFileSync(join(ROOT, 'docs', 'security.md'), 'utf8');
const references = securityReferences(doc);

describe('the threat model’s proofs', () => {
  it('names tests at all', () => {
    expect(references.length).toBeGreaterThan(50);
  });

  it.each(references.map((r) => [r.text, r] as const))('still exist: %s', (_name, { file, titles }) => {
    const path = join(ROOT, file);
    expect(existsSync(path), `${file} exists`).toBe(true);
    const source = readFileSync(path, 'utf8');
    for (const title of titles) expect(source, `${file} has “${title}”`).toContain(fixedPart(title));
  });
});

describe('the removals that prove them', () => {
  /** References to tests (a source file named for what it defines proves nothing by itself). */
  const named = new Set(references.filter((r) => /(^|\/)tests?\//.test(r.file)).map((r) => r.text));
  const killed = new Set(MUTANTS.flatMap((m) => m.kills));

  it('has a removal for every named test', () => {
    const missing = [...named].filter((r) => !killed.has(r));
    expect(missing, 'add a removal to scripts/security/mutants/ for each').toEqual([]);
  });

  it('names only tests the threat model names, under unique ids', () => {
    const strays = MUTANTS.flatMap((m) => m.kills.filter((k) => !named.has(k)).map((k) => `${m.id}: ${k}`));
    expect(strays).toEqual([]);
    const ids = MUTANTS.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(MUTANTS.map((m) => [m.id, m] as const))('still applies to the source: %s', (_id, mutant) => {
    const texts = new Map<string, string>();
    for (const { file, find, replace } of mutant.edits) {
      const path = join(ROOT, file);
      expect(existsSync(path), `${file} exists`).toBe(true);
      const text = texts.get(path) ?? readFileSync(path, 'utf8');
      expect(text.split(find).length - 1, `${file}: “${find.slice(0, 80)}” occurs once`).toBe(1);
      expect(replace).not.toBe(find);
      texts.set(
        path,
        text.replace(find, () => replace),
      );
    }
  });
});
