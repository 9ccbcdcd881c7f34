#!/usr/bin/env node
// `npm run setup`: the one command to run once from a fresh clone, before using bproxy with your own
// browser. Installs the npm dependencies and builds when something is missing (as the quickstart
// does), then runs `bproxy setup`: it registers the native host with every Chromium-family browser
// found and says where to load the extension from. Arguments are passed on (`--browser chrome`).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDependencies } from './ensure.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'packages', 'cli', 'dist');
const needed = [
  join(dist, 'bproxy.mjs'),
  join(dist, 'daemon.mjs'),
  join(dist, 'native-host.mjs'),
  join(root, 'packages', 'extension', 'dist', 'unpacked', 'manifest.json'),
];

ensureDependencies();
if (needed.some((file) => !existsSync(file))) {
  console.error('[bproxy] building…');
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}
const args = process.argv.slice(2);
const setup = spawnSync(
  process.execPath,
  [
    join(root, 'packages', 'cli', 'bin', 'bproxy.mjs'),
    'setup',
    ...(args.includes('--json') ? [] : ['--pretty']),
    ...args,
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(setup.status ?? 1);
