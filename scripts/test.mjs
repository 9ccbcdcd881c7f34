#!/usr/bin/env node
// `npm test`: installs what is missing, builds, then runs every test tier once.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureDependencies, ensureKeyring, ensureXvfb } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, env = process.env) => {
  try {
    execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  } catch {
    process.exit(1);
  }
};

if (!process.argv.includes('--no-install')) ensureDependencies();
const chrome = ensureChromium();
const xvfb = ensureXvfb();
ensureKeyring();
run('node', ['scripts/build.mjs']);
run('npx', ['vitest', 'run', ...process.argv.slice(2).filter((a) => a !== '--no-install')], {
  ...process.env,
  CHROME_PATH: process.env.CHROME_PATH ?? chrome,
  XVFB_PATH: process.env.XVFB_PATH ?? xvfb,
});
