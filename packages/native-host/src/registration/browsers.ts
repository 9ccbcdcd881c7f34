/**
 * The Chromium-family browsers the host registers with, and where each keeps its per-user native
 * messaging hosts:
 * - Linux: `<config>/NativeMessagingHosts/` where config is the browser's folder in
 *   $XDG_CONFIG_HOME (default ~/.config), e.g. ~/.config/google-chrome-beta;
 * - macOS: `~/Library/Application Support/<folder>/NativeMessagingHosts/`;
 * - Windows: a key under HKCU whose default value is the manifest's path. Chrome's channels share
 *   one key, as do Edge's: Chromium reads its host keys by brand, not by channel.
 * A browser counts as installed when its profile exists (it has run for this user) or its program is
 * in a standard place. Snap and Flatpak browsers run hosts inside their sandbox and are
 * not covered.
 */

export interface BrowserSpec {
  /** The name `--browser` takes. */
  readonly id: string;
  readonly name: string;
  readonly linux?: {
    /** The profile folder, relative to the XDG config folder. */
    readonly config: string;
    readonly programs: readonly string[];
  };
  readonly darwin?: {
    /** The profile folder, relative to ~/Library/Application Support. */
    readonly support: string;
    /** The application bundle, looked for in /Applications and ~/Applications. */
    readonly app: string;
  };
  readonly win32?: {
    /** Under HKEY_CURRENT_USER. */
    readonly key: string;
    /** The profile folder, relative to %LOCALAPPDATA%. */
    readonly userData: string;
    /** The program, relative to %LOCALAPPDATA%, %ProgramFiles% or %ProgramFiles(x86)%. */
    readonly program: string;
  };
}

const CHROME_KEY = 'Software\\Google\\Chrome';
const EDGE_KEY = 'Software\\Microsoft\\Edge';

export const BROWSERS: readonly BrowserSpec[] = [
  {
    id: 'chrome',
    name: 'Google Chrome',
    linux: {
      config: 'google-chrome',
      programs: ['/opt/google/chrome/chrome', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'],
    },
    darwin: { support: 'Google/Chrome', app: 'Google Chrome.app' },
    win32: {
      key: CHROME_KEY,
      userData: 'Google\\Chrome\\User Data',
      program: 'Google\\Chrome\\Application\\chrome.exe',
    },
  },
  {
    id: 'chrome-beta',
    name: 'Google Chrome Beta',
    linux: {
      config: 'google-chrome-beta',
      programs: ['/opt/google/chrome-beta/chrome', '/usr/bin/google-chrome-beta'],
    },
    darwin: { support: 'Google/Chrome Beta', app: 'Google Chrome Beta.app' },
    win32: {
      key: CHROME_KEY,
      userData: 'Google\\Chrome Beta\\User Data',
      program: 'Google\\Chrome Beta\\Application\\chrome.exe',
    },
  },
  {
    id: 'chrome-dev',
    name: 'Google Chrome Dev',
    linux: {
      config: 'google-chrome-unstable',
      programs: ['/opt/google/chrome-unstable/chrome', '/usr/bin/google-chrome-unstable'],
    },
    darwin: { support: 'Google/Chrome Dev', app: 'Google Chrome Dev.app' },
    win32: {
      key: CHROME_KEY,
      userData: 'Google\\Chrome Dev\\User Data',
      program: 'Google\\Chrome Dev\\Application\\chrome.exe',
    },
  },
  {
    id: 'chrome-canary',
    name: 'Google Chrome Canary',
    linux: {
      config: 'google-chrome-canary',
      programs: ['/opt/google/chrome-canary/chrome', '/usr/bin/google-chrome-canary'],
    },
    darwin: { support: 'Google/Chrome Canary', app: 'Google Chrome Canary.app' },
    win32: {
      key: CHROME_KEY,
      userData: 'Google\\Chrome SxS\\User Data',
      program: 'Google\\Chrome SxS\\Application\\chrome.exe',
    },
  },
  {
    id: 'chromium',
    name: 'Chromium',
    linux: {
      config: 'chromium',
      programs: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'],
    },
    darwin: { support: 'Chromium', app: 'Chromium.app' },
    win32: {
      key: 'Software\\Chromium',
      userData: 'Chromium\\User Data',
      program: 'Chromium\\Application\\chrome.exe',
    },
  },
  {
    id: 'edge',
    name: 'Microsoft Edge',
    linux: {
      config: 'microsoft-edge',
      programs: ['/opt/microsoft/msedge/msedge', '/usr/bin/microsoft-edge', '/usr/bin/microsoft-edge-stable'],
    },
    darwin: { support: 'Microsoft Edge', app: 'Microsoft Edge.app' },
    win32: {
      key: EDGE_KEY,
      userData: 'Microsoft\\Edge\\User Data',
      program: 'Microsoft\\Edge\\Application\\msedge.exe',
    },
  },
  {
    id: 'edge-beta',
    name: 'Microsoft Edge Beta',
    linux: {
      config: 'microsoft-edge-beta',
      programs: ['/opt/microsoft/msedge-beta/msedge', '/usr/bin/microsoft-edge-beta'],
    },
    darwin: { support: 'Microsoft Edge Beta', app: 'Microsoft Edge Beta.app' },
    win32: {
      key: EDGE_KEY,
      userData: 'Microsoft\\Edge Beta\\User Data',
      program: 'Microsoft\\Edge Beta\\Application\\msedge.exe',
    },
  },
  {
    id: 'edge-dev',
    name: 'Microsoft Edge Dev',
    linux: {
      config: 'microsoft-edge-dev',
      programs: ['/opt/microsoft/msedge-dev/msedge', '/usr/bin/microsoft-edge-dev'],
    },
    darwin: { support: 'Microsoft Edge Dev', app: 'Microsoft Edge Dev.app' },
    win32: {
      key: EDGE_KEY,
      userData: 'Microsoft\\Edge Dev\\User Data',
      program: 'Microsoft\\Edge Dev\\Application\\msedge.exe',
    },
  },
  {
    // No Linux build of Edge Canary exists.
    id: 'edge-canary',
    name: 'Microsoft Edge Canary',
    darwin: { support: 'Microsoft Edge Canary', app: 'Microsoft Edge Canary.app' },
    win32: {
      key: EDGE_KEY,
      userData: 'Microsoft\\Edge SxS\\User Data',
      program: 'Microsoft\\Edge SxS\\Application\\msedge.exe',
    },
  },
  {
    id: 'brave',
    name: 'Brave',
    linux: {
      config: 'BraveSoftware/Brave-Browser',
      programs: ['/opt/brave.com/brave/brave', '/usr/bin/brave-browser', '/usr/bin/brave-browser-stable'],
    },
    darwin: { support: 'BraveSoftware/Brave-Browser', app: 'Brave Browser.app' },
    win32: {
      key: 'Software\\BraveSoftware\\Brave-Browser',
      userData: 'BraveSoftware\\Brave-Browser\\User Data',
      program: 'BraveSoftware\\Brave-Browser\\Application\\brave.exe',
    },
  },
  {
    id: 'vivaldi',
    name: 'Vivaldi',
    linux: {
      config: 'vivaldi',
      programs: ['/opt/vivaldi/vivaldi', '/usr/bin/vivaldi', '/usr/bin/vivaldi-stable'],
    },
    darwin: { support: 'Vivaldi', app: 'Vivaldi.app' },
    win32: {
      key: 'Software\\Vivaldi',
      userData: 'Vivaldi\\User Data',
      program: 'Vivaldi\\Application\\vivaldi.exe',
    },
  },
];

export const BROWSER_IDS: readonly string[] = BROWSERS.map((browser) => browser.id);

export function browserSpec(id: string): BrowserSpec | undefined {
  return BROWSERS.find((browser) => browser.id === id);
}
