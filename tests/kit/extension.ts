/**
 * Shared pieces of the extension's end-to-end tests: headless Chromium with the built extension
 * loaded (playwright-core, persistent context) — and, on request, a second extension whose page other
 * pages may frame —, a static server for the fixture pages (and the libraries under /vendor/ they load)
 * that also counts beacon hits, a CDP handle to stop the extension's service worker on purpose, and
 * bounded polling.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { vendorFile } from '../fixtures/vendor';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const EXTENSION_DIR = join(ROOT, 'packages', 'extension', 'dist', 'unpacked');
const PAGES_DIR = join(ROOT, 'tests', 'fixtures', 'pages');
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

const CHROME_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/google-chrome'];

export function chromePath(): string {
  const found = [process.env.CHROME_PATH, ...CHROME_CANDIDATES].find(
    (p): p is string => !!p && existsSync(p),
  );
  if (!found) throw new Error('no Chromium found: set CHROME_PATH');
  return found;
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

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
  /** The profile folder (default: a fresh temporary one); it is removed on close either way. */
  userDataDir?: string;
  /** The browser's environment, which native hosts it starts inherit (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Load the frame extension too (FRAME_EXTENSION_PAGE). */
  frameExtension?: boolean;
}

export async function launchWithExtension(options: LaunchOptions = {}): Promise<ExtensionBrowser> {
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json')))
    throw new Error('build the extension first: node scripts/build.mjs');
  const extensions = [EXTENSION_DIR, ...(options.frameExtension === true ? [FRAME_EXTENSION_DIR] : [])];
  const userDataDir = options.userDataDir ?? mkdtempSync(join(tmpdir(), 'bproxy-ext-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromePath(),
    headless: true,
    ...(options.env ? { env: options.env } : {}),
    // Playwright turns the popup blocker off; a user's Chrome has it on, and tests show that only a real
    // gesture gets past it.
    ignoreDefaultArgs: ['--disable-extensions', '--disable-popup-blocking'],
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${extensions.join(',')}`,
      `--load-extension=${extensions.join(',')}`,
    ],
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
    async close() {
      await context.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 15, retryDelay: 200 });
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
};

export interface FixtureServer {
  origin: string;
  url(page: string): string;
  /** Beacon hits per path (the counter page posts /count/click on every click). */
  hits(path: string): number;
  close(): Promise<void>;
}

export async function serveFixtures(): Promise<FixtureServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/count/')) {
      hits.set(path, (hits.get(path) ?? 0) + 1);
      res.writeHead(204).end();
      return;
    }
    const file = vendorFile(path) ?? normalize(join(PAGES_DIR, path === '/' ? 'index.html' : path));
    const ours = file.startsWith(PAGES_DIR) || vendorFile(path) !== null;
    if (!ours || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fixture server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  return {
    origin,
    url: (page) => `${origin}/${page}`,
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
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
