/**
 * The extension as a driver: headless Chromium with the built extension loaded (playwright-core,
 * persistent context) — and, on request, a second extension whose page other pages may frame —, a CDP
 * handle to stop the extension's service worker on purpose, and pairing through its popup. Closing
 * is bounded (tests/kit/chromium.ts).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Worker } from 'playwright-core';
import { launchChromium } from './chromium';
import { ROOT } from './paths';
import { until } from './wait';

export const EXTENSION_DIR = join(ROOT, 'packages', 'extension', 'dist', 'unpacked');
/**
 * An extension with one page that web pages may frame, as password managers and translators offer:
 * Chrome refuses another extension's debugger on a page holding such a frame.
 */
const FRAME_EXTENSION_DIR = join(ROOT, 'tests', 'fixtures', 'extensions', 'frame-extension');

/** Chrome's id for an extension with this public key: its SHA-256's first 128 bits, as letters a–p. */
function extensionIdOf(dir: string): string {
  const { key } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { key: string };
  const hex = createHash('sha256').update(Buffer.from(key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

/** The page of the frame extension, for a fixture page to frame (trusted.html?frame=…). */
export const FRAME_EXTENSION_PAGE = `chrome-extension://${extensionIdOf(FRAME_EXTENSION_DIR)}/frame.html`;

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** The fresh profile directory (tests check no Chromium process is left using it). */
  userDataDir: string;
  /** Console errors and uncaught exceptions of the extension's service worker, in every life of it. */
  workerErrors: string[];
  worker(): Promise<Worker>;
  /** Stops every service worker through CDP, as Chrome does to an idle one. */
  stopServiceWorkers(): Promise<void>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** The profile folder (default: a fresh temporary one); it is removed on close unless keepProfile. */
  userDataDir?: string;
  /** Keep the profile on close (a test that starts the browser again on it). */
  keepProfile?: boolean;
  /** The browser's environment, which native hosts it starts inherit (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Load the frame extension too (FRAME_EXTENSION_PAGE). */
  frameExtension?: boolean;
  /** The unpacked extension to load (default: the clone's build, EXTENSION_DIR). */
  extensionDir?: string;
  /** Headed on this X display (the headed tier; tests/kit/headed.ts). */
  display?: string;
  /**
   * Downloads as in a user's Chrome: Chrome's own download handling (Playwright's redirect of every
   * download to its folder, which bypasses extensions, is turned off) into this folder, set as the
   * profile's download folder (a fresh profile only).
   */
  downloadsDir?: string;
}

export async function launchWithExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  const extensionDir = options.extensionDir ?? EXTENSION_DIR;
  if (!existsSync(join(extensionDir, 'manifest.json')))
    throw new Error(`no extension in ${extensionDir}: build it first (node scripts/build.mjs)`);
  const extensions = [extensionDir, ...(options.frameExtension === true ? [FRAME_EXTENSION_DIR] : [])];
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'bproxy-ext-e2e-'));
  if (options.downloadsDir !== undefined && options.userDataDir === undefined) {
    mkdirSync(join(userDataDir, 'Default'), { recursive: true });
    const download = { default_directory: options.downloadsDir, prompt_for_download: false };
    writeFileSync(join(userDataDir, 'Default', 'Preferences'), JSON.stringify({ download }));
  }
  const { context, close } = await launchChromium({
    userDataDir,
    removeProfile: options.keepProfile !== true,
    ...(options.env ? { env: options.env } : {}),
    ...(options.display === undefined ? {} : { display: options.display }),
    // Playwright turns the popup blocker off; a user's Chrome has it on, and tests show that only a real
    // gesture gets past it.
    ignoreDefaultArgs: ['--disable-extensions', '--disable-popup-blocking'],
    args: [`--disable-extensions-except=${extensions.join(',')}`, `--load-extension=${extensions.join(',')}`],
  });
  // Playwright dismisses dialogs nobody listens to; the extension must be the one that sees them.
  context.on('dialog', () => {});
  const workerErrors: string[] = [];
  const watch = (w: Worker) => {
    w.on('console', (message) => {
      if (message.type() === 'error') workerErrors.push(message.text());
    });
  };
  context.on('serviceworker', watch);
  for (const w of context.serviceWorkers()) watch(w);
  const worker = async (): Promise<Worker> => {
    const existing = context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://'));
    if (existing) return existing;
    return context.waitForEvent('serviceworker', { timeout: 10_000 });
  };
  const first = await worker();
  const extensionId = new URL(first.url()).host;
  if (options.downloadsDir !== undefined) {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    try {
      await cdp.send('Browser.setDownloadBehavior', { behavior: 'default' });
    } finally {
      await cdp.detach().catch(() => {});
    }
  }
  return {
    context,
    extensionId,
    userDataDir,
    workerErrors,
    worker,
    async stopServiceWorkers() {
      const page = context.pages()[0] ?? (await context.newPage());
      const cdp = await context.newCDPSession(page);
      try {
        await cdp.send('ServiceWorker.enable');
        await cdp.send('ServiceWorker.stopAllWorkers');
      } finally {
        await cdp.detach().catch(() => {});
      }
    },
    close,
  };
}

/**
 * Pairs through the extension's popup as a user would: port and code typed, Pair clicked. Resolves with
 * the popup's message once it shows an outcome ("Paired …" or why not).
 */
export async function pairThroughPopup(
  browser: ExtensionBrowser,
  code: string,
  port: number,
): Promise<string> {
  const popup = await browser.context.newPage();
  try {
    await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
    await popup.fill('#port', String(port));
    await popup.fill('#code', code);
    await popup.click('#pair');
    return await until('a pairing outcome', async () => {
      const text = (await popup.textContent('#pair-message')) ?? '';
      return text !== '' && text !== 'Pairing…' ? text : undefined;
    });
  } finally {
    await popup.close();
  }
}

/** Pairs and fails unless the popup reports success. */
export async function pair(browser: ExtensionBrowser, code: string, port: number): Promise<void> {
  const message = await pairThroughPopup(browser, code, port);
  if (!/Paired/.test(message)) throw new Error(`pairing failed: ${message}`);
}
