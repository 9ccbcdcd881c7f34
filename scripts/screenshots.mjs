#!/usr/bin/env node
// `npm run screenshots`: builds, then runs the e2e tests that bring the extension's views into a
// realistic state with BPROXY_SCREENSHOTS set, so they write docs/screenshots/*.png.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureDependencies } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TESTS = ['tests/e2e/side-panel.test.ts'];

ensureDependencies();
const chrome = ensureChromium();
const run = (cmd, args, env = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('node', ['scripts/build.mjs']);
run('npx', ['vitest', 'run', '--project', 'e2e', ...TESTS], { BPROXY_SCREENSHOTS: '1', CHROME_PATH: chrome });
