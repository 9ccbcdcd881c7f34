/**
 * Nothing left running that nobody asked for, as a user meets it. `bproxy mcp` starts an implicit
 * daemon with the embedded Chromium; when its MCP client goes away (here the terminal closes: SIGHUP)
 * the session and its tab close, the browser closes after BPROXY_BROWSER_IDLE, and the daemon stops
 * after BPROXY_IDLE_EXIT exactly as `service stop` stops it (drained, its files removed, the log saying
 * why). A daemon started with `service start` under the same settings stays: only its idle browser
 * closes, and the next tab open launches a new one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../kit/chromium';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { childProcesses, isAlive } from '../kit/processes';
import { McpClient, runCli } from '../kit/mcp';
import { Cli, type StartOutput } from '../kit/cli';

// Short periods, the same for both daemons; read by every bproxy process these tests start.
process.env.CHROME_PATH ??= chromiumPath();
process.env.BPROXY_BROWSER = 'headless';
process.env.BPROXY_BROWSER_IDLE = '1s';
process.env.BPROXY_IDLE_EXIT = '3s';

let pages: FixtureServer;
let service: Cli;
let implicitHome: Cli;
let started: StartOutput;

interface Status {
  clients: { name: string; connected: boolean; closesInMs?: number }[];
  lifetime: { implicit: boolean; idleExitMs: number | null; exitInMs: number | null; browserIdleMs: number };
}

function logEvents(home: string): { event?: string; reason?: string }[] {
  const dir = join(home, 'logs');
  return readdirSync(dir).flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { event?: string; reason?: string }),
  );
}

beforeAll(async () => {
  pages = await serveFixtures();
  service = new Cli('bproxy-e2e-service-');
  implicitHome = new Cli('bproxy-e2e-implicit-');
  started = await service.start();
}, 60_000);

afterAll(async () => {
  await implicitHome?.dispose();
  await service?.dispose();
  await pages?.close();
});

describe('what keeps bproxy running', () => {
  it('an MCP-started daemon closes its browser, then stops, once its client is gone; a service daemon stays', async () => {
    // The service daemon: one tab opened and closed, then nothing.
    const { session } = await service.ok<{ session: string }>(
      ['tab', 'open', '--url', pages.url('ext-done.html')],
      60_000,
    );
    expect(childProcesses(started.pid, /chrom/i).length).toBeGreaterThan(0);
    await service.ok(['-s', session, 'session', 'close']);

    // The implicit daemon, started by `bproxy mcp` on its first tool call.
    const env = { ...process.env, BPROXY_HOME: implicitHome.home, BPROXY_PORT: '0', BPROXY_SESSION: '' };
    const mcp = await McpClient.start(env, ['--pacing', 'fast']);
    expect(await mcp.ok('navigate', { url: pages.url('ext-done.html') })).toContain('Extension done');
    const status = JSON.parse((await runCli(env, ['debug', 'status'])).stdout) as Status & { pid: number };
    expect(status.lifetime).toMatchObject({ implicit: true, idleExitMs: 3_000, browserIdleMs: 1_000 });
    const daemonPid = status.pid;
    const browsers = childProcesses(daemonPid, /chrom/i);
    expect(browsers.length).toBeGreaterThan(0);

    // The terminal running the MCP client closes.
    process.kill(mcp.pid ?? 0, 'SIGHUP');
    await mcp.close();
    for (const pid of browsers) await until(`browser ${pid} to close`, () => !isAlive(pid), 20_000);
    await until('the implicit daemon to stop', () => !isAlive(daemonPid), 20_000);
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(implicitHome.home, file)), file).toBe(false);
    const events = logEvents(implicitHome.home);
    const order = (name: string) => events.findIndex((e) => e.event === name);
    expect(events.find((e) => e.event === 'browser_close')?.reason).toBe('idle');
    expect(order('browser_close')).toBeLessThan(order('idle_exit'));
    expect(order('idle_exit')).toBeLessThan(order('daemon_stopped'));
    expect(events.find((e) => e.event === 'daemon_stopping')?.reason).toMatch(/^idle for \d+ s/);

    // The service daemon has been without agents for longer than the idle exit: it still runs, its
    // browser closed for idleness, and a new tab brings one back.
    expect(await service.ok(['service', 'status'])).toMatchObject({ running: true, pid: started.pid });
    expect(logEvents(service.home).find((e) => e.event === 'browser_close')?.reason).toBe('idle');
    const serviceStatus = await service.ok<Status>(['debug', 'status']);
    expect(serviceStatus.lifetime).toMatchObject({ implicit: false, idleExitMs: null, exitInMs: null });
    expect(serviceStatus.clients).toEqual([expect.objectContaining({ name: 'headless', connected: false })]);
    expect(childProcesses(started.pid, /chrom/i)).toEqual([]);
    const again = await service.ok<{ session: string }>(
      ['tab', 'open', '--url', pages.url('ext-done.html')],
      60_000,
    );
    expect((await service.ok<{ text: string }>(['-s', again.session, 'text'])).text).toContain('Done');
  }, 120_000);

  it('an MCP client that outlived its idle daemon gets a new one on its next call', async () => {
    const home = new Cli('bproxy-e2e-implicit-again-');
    const env = { ...process.env, BPROXY_HOME: home.home, BPROXY_PORT: '0', BPROXY_SESSION: '' };
    const mcp = await McpClient.start(env, ['--pacing', 'fast']);
    try {
      await mcp.ok('navigate', { url: pages.url('ext-done.html') });
      const first = JSON.parse((await runCli(env, ['service', 'status'])).stdout) as { pid: number };
      // The agent thinks for longer than the idle exit while its tab is open: the daemon goes.
      await until('the idle daemon to stop', () => !isAlive(first.pid), 20_000);
      const reply = await mcp.call('snapshot');
      expect(reply.isError).toBe(true);
      // Its session went with the daemon, and the reply says what to do.
      expect(reply.text).toMatch(/^SESSION_NOT_FOUND: /);
      expect(reply.text).toContain('call navigate to start again');
      expect(await mcp.ok('navigate', { url: pages.url('ext-done.html') })).toContain('Extension done');
      const second = JSON.parse((await runCli(env, ['service', 'status'])).stdout) as { pid: number };
      expect(second.pid).not.toBe(first.pid);
    } finally {
      await mcp.close();
      await home.dispose();
    }
  }, 90_000);
});
