/**
 * Where a Chrome, Chromium or Edge binary usually lives. CHROME_PATH wins; then the platform's
 * usual places, Debian's real binary first (its /usr/bin/chromium is a shell wrapper that adds
 * flags of its own).
 */
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

export interface FindChromeOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Whether a path is an executable file; injectable for tests. */
  isExecutable?: (path: string) => boolean;
}

export function chromeCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    const apps = [
      'Google Chrome.app/Contents/MacOS/Google Chrome',
      'Chromium.app/Contents/MacOS/Chromium',
      'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
      'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    ];
    const roots = ['/Applications', ...(env.HOME === undefined ? [] : [join(env.HOME, 'Applications')])];
    return roots.flatMap((root) => apps.map((app) => `${root}/${app}`));
  }
  if (platform === 'win32') {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env['PROGRAMFILES(X86)']].filter(
      (r): r is string => r !== undefined,
    );
    const exes = [
      'Google\\Chrome\\Application\\chrome.exe',
      'Chromium\\Application\\chrome.exe',
      'Microsoft\\Edge\\Application\\msedge.exe',
    ];
    return roots.flatMap((root) => exes.map((exe) => `${root}\\${exe}`));
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
    '/snap/bin/chromium',
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
