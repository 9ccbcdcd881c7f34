/**
 * Browser farms that scale out, against a real one: the open-source browserless platform on
 * 127.0.0.1 (tests/kit/farm.ts), Debian's Chromium behind it. With `--cdp-mode per-session` every session
 * gets its own farm browser — its own connection — on its first tab open: several sessions at once,
 * each filling and sending a form, show up as as many browsers in the farm's own session list, and
 * closing a session ends its browser there. Over bproxy's cap the answer is TOO_MANY_BROWSERS without
 * asking the farm; a farm that is full answers 429 (BROWSER_UNAVAILABLE, said as such), one that queues
 * is given up at the request's deadline, one that answers 503 is reported too — never a hang. The
 * farm's token stays out of the daemon's argv and log.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { startFarm, type Farm } from '../kit/farm';
import { Cli, type StartOutput } from '../kit/cli';
import { allowClasses } from '../kit/allow-classes';

const CAP = 3;
let pages: FixtureServer;
let farm: Farm;
let cli: Cli;
let started: StartOutput;

/** A bproxy home whose daemon sends each session to the farm (no embedded browser). */
function farmCli(prefix: string, cdpUrl: string, extra: Record<string, string> = {}): Cli {
  const c = new Cli(prefix);
  c.setEnv({ BPROXY_CDP_URL: cdpUrl, BPROXY_BROWSER: 'none', BPROXY_CDP_MODE: 'per-session', ...extra });
  return c;
}

interface Status {
  clients: { name: string; session?: string; tabs: number }[];
  remoteBrowsers?: { open: number; max: number };
}

beforeAll(async () => {
  pages = await serveFixtures();
  // Room for bproxy's cap plus one browser, and one queued connection.
  farm = await startFarm({ concurrent: CAP + 1, queued: 1 });
  cli = farmCli('bproxy-e2e-farm-', farm.wsUrl, { BPROXY_CDP_MAX_BROWSERS: String(CAP) });
  started = await cli.start();
  // Each agent presses the form's "Send", and no person can answer here: the person allowed send in
  // policy.json (approvals; a farm's browsers count as a person's, so send would be denied).
  allowClasses(cli.home, ['send']);
}, 90_000);

afterAll(async () => {
  await cli?.dispose();
  await farm?.close();
  await pages?.close();
});

/** One agent's task in its own session: open the form, fill it, send it, read the result. */
async function orderAs(name: string): Promise<{ session: string; text: string }> {
  const { session } = await cli.ok<{ session: string }>(
    ['tab', 'open', '--url', pages.url('ext-form.html')],
    60_000,
  );
  await cli.ok(['-s', session, 'session', 'bind', '--pacing', 'fast']);
  await cli.ok(['-s', session, 'fill', '--selector', '#name', '--value', name]);
  await cli.ok(['-s', session, 'click', '--selector', '#send']);
  const { text } = await cli.ok<{ text: string }>(['-s', session, 'text']);
  return { session, text };
}

describe('a browser farm, one browser per session', () => {
  let sessions: string[] = [];

  it('runs several sessions at once, each on its own farm browser, each finishing its task', async () => {
    const done = await Promise.all(['Ada', 'Grace', 'Edsger'].map((name) => orderAs(name)));
    sessions = done.map((d) => d.session);
    for (const [i, name] of ['Ada', 'Grace', 'Edsger'].entries()) {
      expect(done[i]?.text).toContain('Done');
      expect(done[i]?.text).toContain(`name=${name}`);
    }
    // The farm's own view: three browsers, each with its one tab on its own done page (beside the
    // blank page a browser starts with).
    const listed = await farm.sessions();
    const browsers = listed.filter((s) => s.type === 'browser');
    expect(browsers).toHaveLength(3);
    const pagesOf = (browserId: string) =>
      listed
        .filter((s) => s.type === 'page' && s.browserId === browserId && s.url !== 'about:blank')
        .map((p) => p.url);
    expect(browsers.map((b) => pagesOf(b.browserId)).sort()).toEqual(
      ['Ada', 'Edsger', 'Grace'].map((name) => [expect.stringContaining(`ext-done.html?name=${name}&`)]),
    );
    const status = await cli.ok<Status>(['debug', 'status']);
    expect(status.remoteBrowsers).toEqual({ open: 3, max: CAP });
    expect(status.clients.filter((c) => c.session !== undefined).map((c) => [c.name, c.tabs])).toEqual(
      expect.arrayContaining(sessions.map((s) => [`remote-${s}`, 1])),
    );
  }, 120_000);

  it("refuses a session over bproxy's cap with TOO_MANY_BROWSERS, without asking the farm", async () => {
    const refused = await cli.fail(['tab', 'open', '--url', pages.url('ext-form.html')]);
    expect(refused).toMatchObject({ code: 'TOO_MANY_BROWSERS', retry: true });
    expect(refused.message).toContain(`all ${CAP} remote browsers`);
    expect(await farm.browsers()).toHaveLength(3);
  });

  it('closes the farm browser with its session, and gives the freed place to the next session', async () => {
    await cli.ok(['-s', sessions[0] ?? '', 'session', 'close']);
    await until(
      'the farm to end the closed session’s browser',
      async () => (await farm.browsers()).length === 2,
    );
    const next = await orderAs('Barbara');
    expect(next.text).toContain('name=Barbara');
    expect(await farm.browsers()).toHaveLength(3);
  }, 60_000);

  it('keeps the farm token out of the daemon’s argv and log', () => {
    const argv = readFileSync(`/proc/${started.pid}/cmdline`, 'utf8');
    expect(argv).not.toContain(farm.token);
    const logs = join(cli.home, 'logs');
    for (const file of readdirSync(logs))
      expect(readFileSync(join(logs, file), 'utf8')).not.toContain(farm.token);
  });
});

describe('a farm that refuses or queues', () => {
  let other: Cli;
  let unavailable: Server | undefined;
  afterAll(async () => {
    await other?.dispose();
    await new Promise<void>((resolve) => (unavailable ? unavailable.close(() => resolve()) : resolve()));
  });

  it('queues a connection past the deadline: a clear BROWSER_UNAVAILABLE, then a 429 is said as such', async () => {
    // bproxy's first daemon holds 3 farm browsers; another daemon takes the farm's last one.
    other = farmCli('bproxy-e2e-farm-other-', farm.wsUrl, { BPROXY_CDP_MAX_BROWSERS: '10' });
    await other.start();
    await other.ok(['tab', 'open', '--url', pages.url('ext-form.html')], 60_000);
    expect(await farm.browsers()).toHaveLength(CAP + 1);

    // The farm is full: the next connection waits in its queue, until the request's deadline.
    const startedAt = Date.now();
    const queued = other.fail(
      ['tab', 'open', '--url', pages.url('ext-form.html'), '--timeout', '4000'],
      30_000,
    );
    await until('the farm to queue the connection', async () => (await farm.pressure()).queued === 1);
    // Its queue is full too: the one after is refused with 429.
    const full = await other.fail(['tab', 'open', '--url', pages.url('ext-form.html')]);
    expect(full).toMatchObject({ code: 'BROWSER_UNAVAILABLE', retry: true });
    expect(full.message).toMatch(
      /refused the connection: HTTP 429 Too Many Requests \(a browser farm at its limit/,
    );
    expect(full.message).not.toContain(farm.token);

    const waited = await queued;
    expect(waited.code).toBe('BROWSER_UNAVAILABLE');
    expect(waited.message).toMatch(/did not accept the connection within \d(\.\d)? s/);
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(await other.ok<Status>(['debug', 'status'])).toMatchObject({
      remoteBrowsers: { open: 1, max: 10 },
    });
  }, 90_000);

  it('reports an endpoint that answers 503 to the upgrade, in the shared mode too', async () => {
    unavailable = createServer();
    unavailable.on('upgrade', (_req, socket) => {
      socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => unavailable?.listen(0, '127.0.0.1', resolve));
    const address = unavailable.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const shared = new Cli('bproxy-e2e-farm-503-');
    shared.setEnv({ BPROXY_CDP_URL: `ws://127.0.0.1:${address.port}/?token=abc`, BPROXY_BROWSER: 'none' });
    try {
      await shared.start();
      const refused = await shared.fail(['tab', 'open', '--url', pages.url('ext-form.html')]);
      expect(refused.code).toBe('BROWSER_UNAVAILABLE');
      expect(refused.message).toContain('refused the connection: HTTP 503 Service Unavailable');
    } finally {
      await shared.dispose();
    }
  });
});
