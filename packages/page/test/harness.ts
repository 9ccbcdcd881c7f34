/**
 * Test harness for the page script: a static server for the fixture pages (with the libraries they
 * load under /vendor/, and a corpus of long pages under /corpus/), one headless Chromium, and helpers that
 * inject dist/page.js and call the page API.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  driverResultSchema,
  forwardedParamsSchema,
  isActionName,
  type ActionName,
  type BproxyError,
} from '@bproxy/protocol';
import { PAGE_ACTIONS, type PageAction, type PageResult } from '@bproxy/page';
import { DEFAULT_CORPUS } from '../../../scripts/page-corpus.mjs';
import { vendorFile } from '../../../tests/fixtures/vendor';
import { launchChromium } from '../../../tests/kit/chromium';

const here = fileURLToPath(new URL('.', import.meta.url));
export const FIXTURES = normalize(join(here, '../../../tests/fixtures/pages'));
/** The project's own long pages (tests/fixtures/corpus, made by scripts/make-corpus.mjs). */
export const CORPUS = DEFAULT_CORPUS;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
};

/** The page a /corpus/ path names: one .html file name, nothing with a separator or outside the folder. */
function corpusName(pathname: string): string | null {
  if (!pathname.startsWith('/corpus/')) return null;
  let name: string;
  try {
    name = decodeURIComponent(pathname.slice('/corpus/'.length));
  } catch {
    return null;
  }
  return name.endsWith('.html') && !/[/\\\0]/.test(name) && !name.startsWith('.') ? name : null;
}

/** Serves the fixture pages, and the .html pages of `corpus` (the project's own by default) under /corpus/. */
export async function serveFixtures(
  corpus: string = CORPUS,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let file: string | null = null;
    const corpusPage = corpusName(url.pathname);
    if (corpusPage !== null) file = join(corpus, corpusPage);
    else if (url.pathname.startsWith('/spa/')) file = join(FIXTURES, 'spa.html');
    else if (url.pathname.startsWith('/vendor/')) file = vendorFile(url.pathname);
    else if (/^\/([\w-]+\/)?[\w.-]+\.html$/.test(url.pathname)) file = join(FIXTURES, url.pathname.slice(1));
    const headers: Record<string, string> = {
      'Content-Security-Policy': "default-src 'self' 'unsafe-inline' data:",
    };
    if (file === null || normalize(file) !== file) {
      res.writeHead(404, headers).end('not found');
      return;
    }
    readFile(file).then(
      (body) =>
        res
          .writeHead(200, { ...headers, 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => res.writeHead(404, headers).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface BrowserHandle {
  context: BrowserContext;
  close: () => Promise<void>;
}

/** One headless Chromium (tests/kit: its flags, and a close that is bounded and removes its profile). */
export async function launch(): Promise<BrowserHandle> {
  const { context, close } = await launchChromium({ viewport: { width: 1000, height: 700 } });
  return { context, close };
}

let bundle: Promise<string> | null = null;

/** The page bundle, built once per test process with the package's own build(). */
export function pageBundle(): Promise<string> {
  bundle ??= (async () => {
    const buildFile = new URL('../build.mjs', import.meta.url).href;
    const mod = (await import(buildFile)) as { build: () => Promise<{ outfile: string }> };
    const { outfile } = await mod.build();
    return readFile(outfile, 'utf8');
  })();
  return bundle;
}

export async function inject(page: Page): Promise<void> {
  await page.evaluate(await pageBundle());
}

export async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  await page.goto(url);
  await inject(page);
  return page;
}

/** A new page holding `html` (its URL is about:blank), with the bundle injected, closed after `body`. */
export async function withHtml(
  context: BrowserContext,
  html: string,
  body: (page: Page) => Promise<void>,
): Promise<void> {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  try {
    await page.setContent(html);
    await inject(page);
    await body(page);
  } finally {
    await page.close();
  }
}

export function call(page: Page, action: PageAction, params: unknown = {}): Promise<PageResult> {
  // Tests send only what a driver could forward.
  if (PROTOCOL_ACTIONS.has(action)) forwardedParamsSchema(action as ActionName).parse(params);
  return page.evaluate(
    ([a, p]) =>
      (
        globalThis as unknown as { __bproxyPage: { run: (a: string, p: unknown) => Promise<unknown> } }
      ).__bproxyPage.run(a, p) as Promise<PageResult>,
    [action, params] as const,
  );
}

/** Page actions that are also protocol actions: their params and results are checked against the protocol. */
const PROTOCOL_ACTIONS = new Set<string>(PAGE_ACTIONS.filter((a) => isActionName(a)));

/**
 * Call an action that must succeed; its data is checked against the protocol's driver-result schema
 * (less the frame slots a driver fills in).
 */
export async function ok<T = Record<string, unknown>>(
  page: Page,
  action: PageAction,
  params: unknown = {},
): Promise<T> {
  const result = await call(page, action, params);
  if (!result.ok) throw new Error(`${action} failed: ${result.error.code} ${result.error.message}`);
  if (!PROTOCOL_ACTIONS.has(action)) return result.data as T;
  // `frameSlots` is for the driver, which reads those frames and answers without it (driver frame-reads).
  const { frameSlots, ...data } = result.data as Record<string, unknown>;
  const parsed = driverResultSchema(action as ActionName).parse(data) as Record<string, unknown>;
  return (frameSlots === undefined ? parsed : { ...parsed, frameSlots }) as T;
}

/** Call an action that must fail; answers its error. */
export async function fails(page: Page, action: PageAction, params: unknown = {}): Promise<BproxyError> {
  const result = await call(page, action, params);
  if (result.ok)
    throw new Error(
      `${action} succeeded but was expected to fail: ${JSON.stringify(result.data).slice(0, 300)}`,
    );
  return result.error;
}

/** A fixture server and one browser for a whole test file, started before its tests and closed after. */
export interface PageFixtures {
  readonly server: { origin: string; close: () => Promise<void> };
  readonly browser: BrowserHandle;
}

export function usePageFixtures(): PageFixtures {
  let server: PageFixtures['server'] | undefined;
  let browser: BrowserHandle | undefined;
  beforeAll(async () => {
    server = await serveFixtures();
    browser = await launch();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('page fixtures are not started (used outside a test?)');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
  };
}
