#!/usr/bin/env node
// `node scripts/cli-reference.mjs`: writes the README's CLI reference (between <!-- cli:start --> and
// <!-- cli:end -->) from the CLI's command definitions, derived commands included
// (packages/cli/src/commands/tree.ts). packages/cli/test/commands/tree.test.ts holds the README to it.
// Also writes the agents' guide as a skill, packages/cli/skills/bproxy/SKILL.md (skillText() of
// packages/cli/src/commands/agents-guide.ts; packages/cli/test/commands/skill.test.ts holds it).
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'bproxy-cli-reference-'));
try {
  const commands = join(root, 'packages', 'cli', 'src', 'commands');
  await build({
    entryPoints: [join(commands, 'tree.ts'), join(commands, 'agents-guide.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  const { commandTree, referenceRows, referenceTable } = await import(
    pathToFileURL(join(dir, 'tree.mjs')).href
  );
  const { skillText } = await import(pathToFileURL(join(dir, 'agents-guide.mjs')).href);
  const skillDir = join(root, 'packages', 'cli', 'skills', 'bproxy');
  mkdirSync(skillDir, { recursive: true });
  writeFileSync(join(skillDir, 'SKILL.md'), skillText());
  const table = referenceTable(referenceRows(commandTree()));
  const path = join(root, 'README.md');
  const readme = readFileSync(path, 'utf8');
  const start = '<!-- cli:start -->';
  const end = '<!-- cli:end -->';
  const [before, rest] = readme.split(start);
  const after = rest?.split(end)[1];
  if (before === undefined || after === undefined) throw new Error(`README.md has no ${start} … ${end}`);
  writeFileSync(path, `${before}${start}\n\n${table}\n\n${end}${after}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
