/**
 * The console and network suite, written once and run on every driver: a checkout page that logs,
 * throws uncaught, and fails requests (422 with a cookie, 500, a CORS failure across two loopback
 * origins) read back through the real CLI — console and network lines, one request's headers with
 * the credentials redacted, its body inline or in the session's folder, the HAR export and the paths
 * it refuses, the one-line news in an action's answer, wait --console-error — and through a real MCP
 * client.
 */
import { lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverUnderTest, SuiteEnv } from '../agent';
import { McpClient } from '../mcp';
import { allowClasses } from '../allow-classes';
import { BIG_BODY, SECRETS, serveObserve, type ObserveServer } from '../observe-server';

const T = 60_000;

interface Listed {
  text: string;
  total: number;
  shown: number;
  nextOffset?: number;
}
interface Acted {
  notes?: string[];
}
interface Header {
  name: string;
  value: string;
}
interface Got {
  record: {
    id: string;
    method: string;
    status?: number;
    requestHeaders: Header[];
    responseHeaders: Header[];
    redacted?: string[];
  };
  body?: string;
  bodyFile?: string;
  bodyBytes?: number;
}

/** The id (r3) of the first line of a network list that matches `pattern`. */
function requestId(list: string, pattern: RegExp): string {
  const line = list.split('\n').find((l) => pattern.test(l));
  const id = line?.split(' ')[0];
  if (id === undefined || !/^r\d+$/.test(id))
    throw new Error(`no request matching ${String(pattern)} in:\n${list}`);
  return id;
}

export function defineObserveSuite(driver: DriverUnderTest): void {
  describe(`console and network on ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    let server: ObserveServer | undefined;
    const e = (): SuiteEnv => {
      if (env === undefined) throw new Error(`${driver.label} did not start`);
      return env;
    };
    const srv = (): ObserveServer => {
      if (server === undefined) throw new Error('the observe server did not start');
      return server;
    };
    const cli = () => e().cli;
    const session = async (): Promise<string> => {
      const created = await cli().ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
      await cli().ok(['tab', 'open', '-s', created.session, srv().pageUrl, '--browser', e().browser]);
      return created.session;
    };

    beforeAll(async () => {
      env = await driver.start();
      // The checkout's "Pay" button is pressed: a person allowed pay/submit (approvals).
      allowClasses(env.cli.home, ['submit']);
      server = await serveObserve();
    }, 120_000);
    afterAll(async () => {
      await server?.close();
    });

    it(
      'answers an action with one line of the console errors and failed requests it caused, and nothing when there are none',
      async () => {
        const s = await session();
        const pay = await cli().ok<Acted>(['click', '-s', s, '--selector', '#pay']);
        expect(pay.notes).toEqual(['1 console error, POST /api/cart 422']);
        const boom = await cli().ok<Acted>(['click', '-s', s, '--selector', '#boom']);
        expect(boom.notes?.[0]).toMatch(/^1 console error, GET \/api\/boom 500$/);
        const cors = await cli().ok<Acted>(['click', '-s', s, '--selector', '#cors']);
        expect(cors.notes?.join('\n')).toMatch(/GET \/api\/data failed/);
        const quiet = await cli().ok<Acted>(['click', '-s', s, '--selector', '#quiet']);
        expect(quiet.notes).toBeUndefined();
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'reads the console with levels, source locations and uncaught errors, filtered and continued with --offset',
      async () => {
        const s = await session();
        await cli().ok(['click', '-s', s, '--selector', '#pay']);
        await cli().ok(['click', '-s', s, '--selector', '#boom']);
        const all = await cli().ok<Listed>(['console', '-s', s]);
        expect(all.text).toContain('[log] page ready');
        expect(all.text).toContain('[warning] slow config');
        const origin = srv().origin.replace(/[.]/g, '\\.');
        expect(all.text).toMatch(
          new RegExp(
            `\\[error\\] payment failed: card declined \\(${origin}/observe\\.html[^:]*:\\d+:\\d+\\)`,
          ),
        );
        expect(all.text).toMatch(
          /\[error\] Uncaught Error: render exploded 3318 \(.*observe\.html.*:\d+:\d+\)/,
        );

        const errors = await cli().ok<Listed>(['console', '-s', s, '--level', 'error']);
        expect(errors.text).not.toContain('page ready');
        expect(errors.text).not.toContain('slow config');
        expect(errors.text).toContain('render exploded 3318');
        const found = await cli().ok<Listed>(['console', '-s', s, '--contains', 'EXPLODED']);
        expect(found).toMatchObject({ total: 1, shown: 1 });

        const first = await cli().ok<Listed>(['console', '-s', s, '--max-chars', '100']);
        expect(first.shown).toBeLessThan(first.total);
        expect(first.nextOffset).toBe(first.shown);
        const rest = await cli().ok<Listed>(['console', '-s', s, '--offset', String(first.nextOffset)]);
        expect(rest.shown).toBe(first.total - first.shown);
        expect(`${first.text}\n${rest.text}`).toBe(all.text);

        // --since-action: only what came after the latest action started.
        await cli().ok(['click', '-s', s, '--selector', '#quiet']);
        const since = await cli().ok<Listed>(['console', '-s', s, '--since-action']);
        expect(since.text).not.toContain('payment failed');
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'lists the document and the subresources of the page a tab was opened with',
      async () => {
        const s = await session();
        const all = await cli().ok<Listed>(['network', '-s', s]);
        expect(all.text).toMatch(/^r\d+ GET 200 document http:\/\/127\.0\.0\.1:\d+\/observe\.html/m);
        expect(all.text).toMatch(/^r\d+ GET 200 stylesheet http:\/\/127\.0\.0\.1:\d+\/observe\.css/m);
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'lists requests one line each, filtered by status, type and URL part, the CORS failure included',
      async () => {
        const s = await session();
        await cli().ok(['click', '-s', s, '--selector', '#pay']);
        await cli().ok(['click', '-s', s, '--selector', '#boom']);
        await cli().ok(['click', '-s', s, '--selector', '#cors']);
        const all = await cli().ok<Listed>(['network', '-s', s]);
        expect(all.text).toMatch(/^r\d+ GET 200 document http:\/\/127\.0\.0\.1:\d+\/observe\.html/m);
        const c4 = await cli().ok<Listed>(['network', '-s', s, '--status', '4xx']);
        expect(c4.total).toBe(1);
        expect(c4.text).toMatch(
          /^r\d+ POST 422 fetch http:\/\/127\.0\.0\.1:\d+\/api\/cart \d+B \d+ms ← observe\.html:\d+$/,
        );
        const c5 = await cli().ok<Listed>(['network', '-s', s, '--status', '5xx']);
        expect(c5.text).toMatch(/GET 500 fetch .*\/api\/boom/);
        const failed = await cli().ok<Listed>(['network', '-s', s, '--status', 'failed']);
        expect(failed.text).toContain(`${srv().otherOrigin}/api/data`);
        expect(failed.text).toMatch(/\(.*CORS.*\)/);
        const fetches = await cli().ok<Listed>(['network', '-s', s, '--type', 'fetch']);
        expect(fetches.total).toBe(3);
        const cart = await cli().ok<Listed>(['network', '-s', s, '--contains', '/api/cart']);
        expect(cart.total).toBe(1);
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      "shows one request's headers with the credentials redacted, and its body inline or in the session's folder",
      async () => {
        const s = await session();
        await cli().ok(['click', '-s', s, '--selector', '#pay']);
        const list = (await cli().ok<Listed>(['network', '-s', s, '--contains', '/api/cart'])).text;
        const id = requestId(list, /POST 422/);
        const got = await cli().ok<Got>(['network', 'get', '-s', s, id, '--body']);
        const raw = JSON.stringify(got);
        for (const secret of Object.values(SECRETS)) expect(raw).not.toContain(secret);
        const header = (list: Header[], name: string) =>
          list.find((h) => h.name.toLowerCase() === name)?.value;
        expect(header(got.record.requestHeaders, 'authorization')).toBe('[redacted]');
        expect(header(got.record.responseHeaders, 'set-cookie')).toBe('[redacted]');
        expect(header(got.record.requestHeaders, 'content-type')).toBe('application/json');
        expect(got.record.redacted).toEqual(expect.arrayContaining(['authorization', 'set-cookie']));
        expect(got.body).toBe('{"error":"card declined"}');

        await cli().ok(['click', '-s', s, '--selector', '#quiet']);
        const big = requestId(
          (await cli().ok<Listed>(['network', '-s', s, '--contains', '/api/big'])).text,
          /200/,
        );
        const long = await cli().ok<Got>(['network', 'get', '-s', s, big, '--body']);
        expect(long.body).toBeUndefined();
        expect(long.bodyBytes).toBe(BIG_BODY.length);
        const file = long.bodyFile ?? '';
        expect(file.startsWith(join(e().cli.home, 'tmp', s))).toBe(true);
        expect(readFileSync(file, 'utf8')).toBe(BIG_BODY);
        expect(lstatSync(file).mode & 0o777).toBe(0o600);

        expect(await cli().failCode(['network', 'get', '-s', s, 'r9999'])).toBe('REQUEST_NOT_FOUND');
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      "exports HAR 0600 into the session's folder, redacted, and refuses paths that leave it",
      async () => {
        const s = await session();
        await cli().ok(['click', '-s', s, '--selector', '#pay']);
        const har = await cli().ok<{ file: string; entries: number }>([
          'network',
          'har',
          '-s',
          s,
          'checkout.har',
        ]);
        const folder = join(e().cli.home, 'tmp', s);
        expect(dirname(har.file)).toBe(folder);
        expect(lstatSync(har.file).mode & 0o777).toBe(0o600);
        const text = readFileSync(har.file, 'utf8');
        for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
        const parsed = JSON.parse(text) as {
          log: { entries: { request: { url: string }; response: { status: number } }[] };
        };
        expect(parsed.log.entries.length).toBe(har.entries);
        expect(parsed.log.entries).toContainEqual(
          expect.objectContaining({
            request: expect.objectContaining({ url: `${srv().origin}/api/cart` }),
            response: expect.objectContaining({ status: 422 }),
          }),
        );

        expect(await cli().failCode(['network', 'har', '-s', s, '../escape.har'])).toBe('PATH_NOT_ALLOWED');
        expect(await cli().failCode(['network', 'har', '-s', s, join(tmpdir(), 'abs.har')])).toBe(
          'PATH_NOT_ALLOWED',
        );
        // A link inside the session's folder that leads out of it.
        const outside = join(e().cli.home, 'outside');
        mkdirSync(outside, { recursive: true });
        symlinkSync(outside, join(folder, 'link'));
        expect(await cli().failCode(['network', 'har', '-s', s, 'link/x.har'])).toBe('PATH_NOT_ALLOWED');
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'waits for a console error after an action, and answers a clear WAIT_TIMEOUT when none comes',
      async () => {
        const s = await session();
        await cli().ok(['click', '-s', s, '--selector', '#late']);
        const waited = await cli().ok<{ consoleError: string; waitedMs: number }>([
          'wait',
          '-s',
          s,
          '--console-error',
          '--timeout-ms',
          '10000',
        ]);
        expect(waited.consoleError).toMatch(/^\[error\] late failure 5521/);
        await cli().ok(['click', '-s', s, '--selector', '#quiet']);
        const none = await cli().fail(['wait', '-s', s, '--console-error', '--timeout-ms', '300']);
        expect(none.code).toBe('WAIT_TIMEOUT');
        expect(none.message).toMatch(/no console error within 300 ms/);
        await cli().ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'gives the same reads and the news to an MCP client',
      async () => {
        const mcp = await McpClient.start(
          cli().environment(),
          ['--browser', e().browser, '--pacing', 'fast', '--caps', 'debug,network'],
          'observe',
        );
        try {
          await mcp.ok('tab_open', { url: srv().pageUrl });
          const clicked = await mcp.ok('click', { target: { selector: '#pay' } });
          expect(clicked).toContain('Note: 1 console error, POST /api/cart 422');
          expect(await mcp.ok('console', { level: 'error' })).toContain('payment failed: card declined');
          const list = await mcp.ok('network', { status: '4xx' });
          expect(list).toMatch(/POST 422 fetch/);
          const got = await mcp.ok('network_get', { request: requestId(list, /POST 422/) });
          expect(got).toContain('[redacted]');
          expect(got).not.toContain(SECRETS.authorization);
        } finally {
          await mcp.close();
        }
      },
      T,
    );
  });
}
