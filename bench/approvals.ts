/**
 * `npm run bench:approvals` — what the approvals' read before a click costs. Approvals' built-in
 * defaults ask before pay/submit, send and delete, so the daemon reads the element (a forwarded
 * `inspect` with its own `approval` flag) before every click in the user's Chrome and in a browser it
 * launched. Clicks on the counter page (not sensitive) over HTTP, fast pacing, in interleaved rounds:
 *  - "no read": policy.json allows the three page classes — the gate returns before any read, as every
 *    click did before the defaults were on;
 *  - "read": no `classes` in policy.json — the built-in defaults, one read before each click.
 * For the extension driver (headless Chromium with the built extension, paired through its popup, as
 * bench/e2e.ts) and the CDP driver (the embedded headless Chromium). The final count is checked.
 * A benchmark, not a test. Options: --rounds N (default 10), --clicks N per round and mode (default 20),
 * --driver extension|cdp (default both).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { savePolicy, statePaths } from '@bproxy/client/lifecycle';
import type { SitePolicy } from '@bproxy/protocol';
import {
  pairThroughPopup,
  EXTENSION_DIR,
  launchWithExtension,
  type ExtensionBrowser,
} from '../tests/kit/extension';
import { until } from '../tests/kit/wait';
import {
  DaemonHttp,
  NODE_CLI,
  cleanupOnInterrupt,
  load,
  mustRun,
  pct,
  servePages,
  timed,
} from './cli-common';
import { fastSession, readCount } from './cli-http';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const driverArg = process.argv.indexOf('--driver');
const only = driverArg < 0 ? null : process.argv[driverArg + 1];
const rounds = arg('--rounds', 10);
const perRound = arg('--clicks', 20);

const CHROME_CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/google-chrome'];
const chrome = [process.env.CHROME_PATH, ...CHROME_CANDIDATES].find((p): p is string => !!p && existsSync(p));
if (chrome === undefined) throw new Error('no Chromium found: set CHROME_PATH');
if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) throw new Error('build first: npm run build');

const NO_READ: SitePolicy = {
  version: 1,
  default: 'allow',
  origins: {},
  classes: { submit: 'allow', send: 'allow', delete: 'allow' },
};
const DEFAULTS: SitePolicy = { version: 1, default: 'allow', origins: {} };

interface Times {
  noRead: number[];
  read: number[];
}

async function click(http: DaemonHttp, session: string): Promise<number> {
  const started = performance.now();
  const r = await http.post('click', session, { target: { selector: '#inc' } });
  const elapsed = performance.now() - started;
  if (!r.ok) throw new Error(`click failed: ${JSON.stringify(r.error)}`);
  return elapsed;
}

/** Interleaved rounds of clicks without and with the read; the counter is checked at the end. */
async function measure(http: DaemonHttp, home: string, session: string): Promise<Times> {
  const paths = statePaths(home);
  const times: Times = { noRead: [], read: [] };
  let total = 0;
  for (let i = 0; i < 5; i++, total++) await click(http, session); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['noRead', 'read'] as const) : (['read', 'noRead'] as const)) {
      savePolicy(paths, mode === 'noRead' ? NO_READ : DEFAULTS);
      await click(http, session); // the policy is read again at the first click after the change
      total++;
      for (let i = 0; i < perRound; i++, total++) times[mode].push(await click(http, session));
    }
  }
  const count = await readCount(http, session);
  if (count !== total) throw new Error(`the counter shows ${count} after ${total} clicks`);
  return times;
}

function print(title: string, t: Times): void {
  const line = (name: string, v: number[]) =>
    `  ${name.padEnd(8)} n=${v.length}  p50 ${pct(v, 50).toFixed(1)} ms  p90 ${pct(v, 90).toFixed(1)} ms`;
  console.log(`\n${title} (load ${load()})`);
  console.log(line('no read', t.noRead));
  console.log(line('read', t.read));
  console.log(`  cost     p50 +${(pct(t.read, 50) - pct(t.noRead, 50)).toFixed(1)} ms`);
}

console.log(`bproxy approvals benchmark — load average at start ${load()}`);
const pages = await servePages();

if (only === null || only === 'extension') {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-bench-approvals-ext-'));
  const env = { ...process.env, BPROXY_HOME: home, BPROXY_PORT: '0', BPROXY_SESSION: '' };
  let browser: ExtensionBrowser | undefined;
  let http: DaemonHttp | undefined;
  const cleanup = async () => {
    http?.close();
    await browser?.close();
    await timed(process.execPath, [NODE_CLI, 'service', 'stop'], env).catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  };
  cleanupOnInterrupt(async () => {
    await cleanup();
    await pages.close();
  });
  try {
    const started = JSON.parse(
      (await mustRun(process.execPath, [NODE_CLI, 'service', 'start', '--browser', 'none'], env)).stdout,
    ) as { port: number; pairingCode: string };
    http = DaemonHttp.fromHome(home);
    const client = http;
    browser = await launchWithExtension();
    await pairThroughPopup(browser, started.pairingCode, started.port);
    const name = await until(
      'the extension to connect',
      async () => {
        const status = (await client.ok('debug.status', undefined)) as {
          clients?: { name: string; kind: string; connected: boolean }[];
        };
        return status.clients?.find((c) => c.kind === 'extension' && c.connected)?.name;
      },
      15_000,
    );
    const session = await fastSession(http, pages.counterUrl, name);
    print(
      "Extension driver (the user's Chrome), click on the counter page",
      await measure(http, home, session),
    );
  } finally {
    await cleanup();
  }
}

if (only === null || only === 'cdp') {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-bench-approvals-cdp-'));
  const env = {
    ...process.env,
    BPROXY_HOME: home,
    BPROXY_PORT: '0',
    CHROME_PATH: chrome,
    BPROXY_SESSION: '',
  };
  let http: DaemonHttp | undefined;
  try {
    await mustRun(process.execPath, [NODE_CLI, 'service', 'start'], env);
    http = DaemonHttp.fromHome(home);
    const session = await fastSession(http, pages.counterUrl);
    print(
      'CDP driver (the embedded headless Chromium), click on the counter page',
      await measure(http, home, session),
    );
  } finally {
    http?.close();
    await timed(process.execPath, [NODE_CLI, 'service', 'stop'], env).catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}
await pages.close();
