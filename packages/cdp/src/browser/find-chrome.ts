/**
 * Where a Chrome, Chromium, Edge or Brave binary usually lives. CHROME_PATH wins; then the platform's
 * usual places, Debian's real binary first (its /usr/bin/chromium is a shell wrapper that adds
 * flags of its own).
 */
import { accessSync, constants } from 'node:fs';

export interface FindChromeOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether a path is an executable file; injectable for tests. */
  isExecutable?: (path: string) => boolean;
}

/**
 * The standard install locations, in order of preference: Chrome, Chromium, Edge, Brave (stable
 * channels before the others). macOS: the app bundles in /Applications and ~/Applications. Windows:
 * the per-user install (%LOCALAPPDATA%) before the machine-wide ones (%ProgramFiles%,
 * %ProgramFiles(x86)%), with their usual defaults when the variables are missing. Linux: the
 * distributions' and the vendors' packages.
 */
export function chromeCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
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
    const given = (name: string): string | undefined => {
      const value = env[name];
      return value === undefined || value === '' ? undefined : value;
    };
    const roots = [
      given('LOCALAPPDATA') ??
        (given('USERPROFILE') === undefined ? undefined : `${given('USERPROFILE')}\\AppData\\Local`),
      given('PROGRAMFILES') ?? given('ProgramFiles') ?? 'C:\\Program Files',
      given('PROGRAMFILES(X86)') ?? given('ProgramFiles(x86)') ?? 'C:\\Program Files (x86)',
    ].filter((r): r is string => r !== undefined);
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

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first browser binary found, or undefined. CHROME_PATH is taken as given when it is executable. */
export function findChrome(options: FindChromeOptions = {}): string | undefined {
  const env = options.env ?? process.env;
  const isExecutable = options.isExecutable ?? executable;
  const fromEnv = env.CHROME_PATH;
  if (fromEnv !== undefined && fromEnv !== '' && isExecutable(fromEnv)) return fromEnv;
  return chromeCandidates(options.platform ?? process.platform, env).find((path) => isExecutable(path));
}
