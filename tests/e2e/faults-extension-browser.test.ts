/**
 * Faults with the real extension in real headless Chromium: a reconnect storm (the daemon restarted
 * again and again; while it is down the worker retries with a bounded backoff, never in a tight loop,
 * and it is back within seconds of every restart), and the whole browser killed with a click in
 * flight (the agent gets exactly one answer, the daemon is left idle and keeps serving).
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cli, type StartOutput } from '../kit/cli';
import { pair, launchWithExtension, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { childProcesses, isAlive } from '../kit/processes';

process.env.BPROXY_BROWSER = 'none';

let browser: ExtensionBrowser;
let pages: FixtureServer;
let cli: Cli;
let started: StartOutput;

interface Status {
  pending: number;
  clients: { name: string; kind: string; connected: boolean }[];
}

async function extensionConnected(): Promise<boolean> {
  const status = await cli.ok<Status>(['debug', 'status']);
  return status.clients.some((c) => c.kind === 'extension' && c.connected);
}

/**
 * Stands in on the daemon's port while it is down, refusing and counting connection attempts: each
 * starts with the daemon-proof challenge (the socket is only opened once a daemon proved itself).
 */
async function countAttempts(port: number, ms: number): Promise<number> {
  let attempts = 0;
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/pair/proof') attempts++;
    res.writeHead(503).end();
  });
  server.on('upgrade', (_req, socket) => {
    attempts++;
    socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await new Promise((r) => setTimeout(r, ms)); // a measurement window, not synchronization
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return attempts;
}

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli();
  started = await cli.start();
  cli.usePort(started.port);
  browser = await launchWithExtension();
  await pair(browser, started.pairingCode, started.port);
  await until('the extension to connect', () => extensionConnected(), 20_000);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await cli?.dispose();
  await pages?.close();
});

describe('extension faults', () => {
  it('rides out a reconnect storm with bounded retries and reconnects after every restart', async () => {
    const perWindow: number[] = [];
    for (let round = 0; round < 3; round++) {
      await cli.stop();
      perWindow.push(await countAttempts(started.port, 3_000));
      const again = await cli.start();
      expect(again.port).toBe(started.port);
      // Within the backoff cap (10 s) of the restart, whatever the storm did to the delay.
      await until(`the extension to reconnect (round ${round + 1})`, () => extensionConnected(), 15_000);
    }
    // Backoff 250 ms doubling (full jitter) up to 10 s, reset only by a connection that lasted: a
    // handful of attempts per 3 s window at most (fewer as the storm goes on), never a spin.
    expect(perWindow.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    for (const n of perWindow) expect(n).toBeLessThanOrEqual(12);
    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, '--url', pages.url('ext-done.html')]);
    expect((await cli.ok<{ text: string }>(['text', '-s', session])).text).toContain('Done');
  }, 90_000);

  it('gives one answer when the whole browser is killed mid-click and stays idle and serving', async () => {
    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, '--url', pages.url('ext-counter.html')]);
    const chromes = childProcesses(process.pid, /chrom/i);
    expect(chromes.length).toBeGreaterThan(0);
    const before = pages.hits('/count/slow-start');
    const click = cli.run(['click', '-s', session, '--selector', '#slow', '--timeout', '6000']);
    await until('the slow click to start', () => pages.hits('/count/slow-start') === before + 1, 20_000);
    for (const pid of chromes) process.kill(pid, 'SIGKILL');
    const result = await click;
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/TIMEOUT|BROWSER_DISCONNECTED/);
    for (const pid of chromes) await until(`browser ${pid} to die`, () => !isAlive(pid));
    const status = await cli.ok<Status>(['debug', 'status']);
    expect(status.pending).toBe(0);
    expect(status.clients.filter((c) => c.kind === 'extension').every((c) => !c.connected)).toBe(true);
    // The page never completed the click: it was killed in the middle and nothing ran it again.
    expect(pages.hits('/count/click')).toBe(0);
    expect((await cli.run(['session', 'list'])).code).toBe(0);
  }, 60_000);
});
