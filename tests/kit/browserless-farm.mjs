/**
 * A real browser farm for the tests and the farm benchmark: the open-source browserless platform
 * (@browserless.io/browserless), started from code on 127.0.0.1 with Debian's Chromium.
 *
 *   node browserless-farm.mjs '{"token":"…","concurrent":3,"queued":1,"chrome":"/usr/lib/chromium/chromium","browsersDir":"/tmp/…"}'
 *
 * browserless looks for Chromium where Playwright installs it; PLAYWRIGHT_BROWSERS_PATH (set here,
 * before browserless is loaded, to `browsersDir`) redirects that, and a symlink at the path Playwright
 * expects points at the given binary. Only the Chromium routes are served (the Chrome, Edge, Firefox
 * and WebKit ones need browsers that are not installed). Prints `{"port":N}` once it listens; stops on
 * SIGTERM or when stdin closes (its parent went away).
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const options = JSON.parse(process.argv[2] ?? '{}');
process.env.PLAYWRIGHT_BROWSERS_PATH = options.browsersDir;
// The platform's own logging (the debug package) stays off unless the caller asks for it.
process.env.DEBUG ??= '';

// Playwright's idea of where Chromium lives, asked of the copy browserless itself loads.
const entry = fileURLToPath(import.meta.resolve('@browserless.io/browserless')); // …/build/exports.js
const playwright = createRequire(join(dirname(entry), '..', 'package.json'))('playwright-core');
const expected = playwright.chromium.executablePath();
mkdirSync(dirname(expected), { recursive: true });
symlinkSync(options.chrome, expected);

const {
  Browserless,
  BrowserlessChromeRoutes,
  BrowserlessEdgeRoutes,
  BrowserlessFirefoxRoutes,
  BrowserlessWebKitRoutes,
  Config,
} = await import('@browserless.io/browserless');

const config = new Config();
config.setPort(0);
config.setToken(options.token);
config.setConcurrent(options.concurrent);
config.setQueued(options.queued);
// A session may last as long as a test or a benchmark needs it (browserless's default is 30 s).
config.setTimeout(10 * 60_000);
const farm = new Browserless({ config });
farm.disableRoutes(
  ...Object.values(BrowserlessChromeRoutes),
  ...Object.values(BrowserlessEdgeRoutes),
  ...Object.values(BrowserlessFirefoxRoutes),
  ...Object.values(BrowserlessWebKitRoutes),
);
await farm.start();
// The port the system chose (port 0): browserless keeps its node:http server on `server.server`.
const address = farm.server?.server?.address();
if (address === null || typeof address !== 'object') throw new Error('the farm is not listening');
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void farm.stop().finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 5_000).unref();
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
