/**
 * The skill shipped in packages/cli/skills/bproxy/SKILL.md is the agents' guide of `bproxy help
 * agents` (one source: `node scripts/cli-reference.mjs` writes the file), in the SKILL.md layout:
 * front matter with the folder's name and a description, then the guide whole.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AGENTS_GUIDE, SKILL_DESCRIPTION, skillText } from '../../src/commands/agents-guide';

const shipped = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'skills', 'bproxy', 'SKILL.md');

describe('the bproxy skill', () => {
  it('is the file shipped in packages/cli/skills/bproxy (run node scripts/cli-reference.mjs)', () => {
    expect(readFileSync(shipped, 'utf8')).toBe(skillText());
  });

  it('has the SKILL.md front matter and the whole guide', () => {
    const text = skillText();
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
    expect(front?.[1]).toBe('bproxy');
    expect(JSON.parse(front?.[2] ?? '""')).toBe(SKILL_DESCRIPTION);
    expect(SKILL_DESCRIPTION.length).toBeLessThanOrEqual(1024);
    expect(text).toContain(AGENTS_GUIDE);
  });
});
