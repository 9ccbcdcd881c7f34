#!/usr/bin/env node
// `npm run check`: what CI runs — no path outside the repository, typecheck, lint, format check,
// then the whole test suite.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const step = (name, cmd, args) => {
  console.error(`\n[check] ${name}`);
  try {
    execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
  } catch {
    console.error(`\n[check] ${name} failed`);
    process.exit(1);
  }
};

ensureDependencies();
step('paths inside the repository', 'node', ['scripts/outside-paths.mjs']);
step('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
step('lint', 'npx', ['eslint', '.']);
step('format', 'npx', ['prettier', '--check', '.']);
step('test', 'node', ['scripts/test.mjs', '--no-install']);
