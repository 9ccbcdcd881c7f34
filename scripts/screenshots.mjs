#!/usr/bin/env node
// `npm run screenshots`: builds, then stages the real side panel and popup of a headed Chromium on a
// virtual screen (Xvfb, installed like Chromium when missing) and writes docs/screenshots/*.png from
// them (tests/headed/shoot-panel.ts).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureDependencies, ensureXvfb } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

ensureDependencies();
const chrome = ensureChromium();
const xvfb = ensureXvfb();
const run = (cmd, args, env = {}) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};
run('node', ['scripts/build.mjs']);
run('node', ['--import', 'tsx', 'tests/headed/shoot-panel.ts'], {
  CHROME_PATH: chrome,
  XVFB_PATH: xvfb,
});
