#!/usr/bin/env node
// Installs what the tests and the quickstart need on a fresh machine: npm dependencies (when
// node_modules is missing or older than package-lock.json) and, for browser tests, a Chromium.
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDependencies() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.error('[bproxy] installing npm dependencies (npm ci)…');
  const npm = npmCommand();
  execFileSync(npm.command, ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    shell: npm.shell,
  });
}

/**
 * How to run npm: on Windows it is npm.cmd, a batch file, which Node runs only through a shell (it
 * refuses .cmd and .bat files without one); the arguments given to it here are fixed words.
 */
export function npmCommand(platform = process.platform) {
  return platform === 'win32' ? { command: 'npm.cmd', shell: true } : { command: 'npm', shell: false };
}

/**
 * The browsers looked for, in order: the same standard places as packages/cdp's findChrome (Chrome,
 * Chromium, Edge, Brave on Linux, macOS and Windows; a test keeps the two lists equal).
 */
export function browserCandidates(platform = process.platform, env = process.env) {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      'Brave Browser.app/Contents/MacOS/Brave Browser',
      'Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta',
      'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    ];
    const roots = ['/Applications', ...(env.HOME === undefined ? [] : [`${env.HOME}/Applications`])];
    return roots.flatMap((root) => apps.map((app) => `${root}/${app}`));
  }
  if (platform === 'win32') {
    const given = (name) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
    const roots = [
      given('LOCALAPPDATA') ??
        (given('USERPROFILE') === undefined ? undefined : `${given('USERPROFILE')}\\AppData\\Local`),
      given('PROGRAMFILES') ?? given('ProgramFiles') ?? 'C:\\Program Files',
      given('PROGRAMFILES(X86)') ?? given('ProgramFiles(x86)') ?? 'C:\\Program Files (x86)',
    ].filter((r) => r !== undefined);
    const exes = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
      'BraveSoftware\\Brave-Browser\\Application\\brave.exe',
      'Google\\Chrome Beta\\Application\\chrome.exe',
      'Google\\Chrome SxS\\Application\\chrome.exe',
    ];
    return exes.flatMap((exe) => roots.map((root) => `${root}\\${exe}`));
  }
  return [
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/opt/google/chrome/chrome',
    '/usr/bin/microsoft-edge',
    '/usr/bin/microsoft-edge-stable',
    '/opt/microsoft/msedge/msedge',
    '/usr/bin/brave-browser',
    '/usr/bin/brave',
    '/opt/brave.com/brave/brave',
    '/snap/bin/chromium',
    '/snap/bin/brave',
  ];
}

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** CHROME_PATH when it is executable, else the first standard place that holds a browser. */
export function findBrowser(platform = process.platform, env = process.env, executable = isExecutable) {
  const chosen = env.CHROME_PATH;
  if (chosen !== undefined && chosen !== '' && executable(chosen)) return chosen;
  return browserCandidates(platform, env).find((path) => executable(path));
}

/** Returns a Chromium binary, installing Debian's package when we can (root on Debian). */
export function ensureChromium() {
  const found = findBrowser();
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
    const debian = '/usr/lib/chromium/chromium';
    if (r.status === 0 && existsSync(debian)) return debian;
  }
  throw new Error(
    'No Chrome, Chromium, Edge or Brave found. Install one (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROME_PATH.',
  );
}

/**
 * Returns the Xvfb binary the headed tier (tests/headed) starts its virtual screens with, installing
 * Debian's xvfb when we can (root on Debian), as for Chromium.
 */
export function ensureXvfb() {
  const candidates = [process.env.XVFB_PATH, '/usr/bin/Xvfb', '/usr/local/bin/Xvfb'];
  const found = candidates.find((p) => p !== undefined && p !== '' && isExecutable(p));
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.error("[bproxy] no Xvfb found: installing Debian's xvfb (apt-get)…");
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'xvfb'], {
      stdio: 'inherit',
      env,
    });
    if (r.status === 0 && existsSync('/usr/bin/Xvfb')) return '/usr/bin/Xvfb';
  }
  throw new Error(
    'No Xvfb found: the headed tests need it. Install it (Debian/Ubuntu: sudo apt-get install -y xvfb) or set XVFB_PATH.',
  );
}

/** The programs the real-keyring test (packages/cli/test/secret-keyring.test.ts) runs, by Debian package. */
export const KEYRING_TOOLS = {
  '/usr/bin/dbus-daemon': 'dbus',
  '/usr/bin/dbus-send': 'dbus',
  '/usr/bin/gnome-keyring-daemon': 'gnome-keyring',
  '/usr/bin/secret-tool': 'libsecret-tools',
};

/**
 * On Linux, installs what a real libsecret keyring needs when any of it is missing — a D-Bus session
 * bus, gnome-keyring and secret-tool — as for Chromium and Xvfb (root on Debian): the secret store's
 * keychain path is tested against a real keyring, not a stand-in. Returns the packages it installed.
 */
export function ensureKeyring(platform = process.platform) {
  if (platform !== 'linux') return [];
  const missing = [
    ...new Set(
      Object.entries(KEYRING_TOOLS)
        .filter(([path]) => !isExecutable(path))
        .map(([, pkg]) => pkg),
    ),
  ];
  if (missing.length === 0) return [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.error(`[bproxy] no session keyring: installing Debian's ${missing.join(', ')} (apt-get)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    const r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env,
    });
    if (r.status === 0 && Object.keys(KEYRING_TOOLS).every((path) => isExecutable(path))) return missing;
  }
  throw new Error(
    `No session keyring: the secret store's keyring test needs ${missing.join(', ')}. Install them (Debian/Ubuntu: sudo apt-get install -y gnome-keyring libsecret-tools dbus).`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  ensureDependencies();
  if (process.argv.includes('--chromium')) console.log(ensureChromium());
}
