#!/usr/bin/env node
// Installs what the tests and the quickstart need on a fresh machine: npm dependencies (when
// node_modules is missing or older than package-lock.json) and, for browser tests, a Chromium.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.error('[bproxy] installing npm dependencies (npm ci)…');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

const CANDIDATES = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** Returns a Chromium binary, installing Debian's package when we can (root on Debian). */
export function ensureChromium() {
  const found = [process.env.CHROME_PATH, ...CANDIDATES].find((p) => p && existsSync(p));
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.error("[bproxy] no Chromium found: installing Debian's chromium (apt-get)…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env,
    });
    if (r.status === 0 && existsSync(CANDIDATES[0])) return CANDIDATES[0];
  }
  throw new Error(
    'No Chrome or Chromium found. Install one (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROME_PATH.',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureDependencies();
  if (process.argv.includes('--chromium')) console.log(ensureChromium());
}
