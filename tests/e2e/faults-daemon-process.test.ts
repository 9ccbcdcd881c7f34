/**
 * The daemon process itself failing, through the real CLI: killed with SIGKILL while requests are in
 * flight (the agent gets one answer, the restart reclaims the stale lock, the extension reconnects
 * with its stored token, and the request that was in flight never runs again), and stopped with
 * SIGTERM while requests are in flight (they drain, newcomers get SHUTTING_DOWN, the process exits
 * and removes its state files). No browser: the extension is a scripted WebSocket client.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cli, type CliResult, type StartOutput } from '../kit/cli';
import { until } from '../kit/wait';
import { ReconnectingExtension, claimToken } from '../kit/faulty-extension';
import { isAlive } from '../kit/processes';
import { allowClasses } from '../kit/allow-classes';

// Read by the daemon `service start` spawns: no embedded browser in these cases.
process.env.BPROXY_BROWSER = 'none';

let cli: Cli;
let ext: ReconnectingExtension;
let started: StartOutput;

interface Status {
  pid: number;
  pending: number;
  clients: { kind: string; connected: boolean }[];
}

async function status(): Promise<Status> {
  return cli.ok<Status>(['debug', 'status']);
}

async function extensionConnected(): Promise<boolean> {
  const s = await status();
  return s.clients.some((c) => c.kind === 'extension' && c.connected);
}

function expectOneCleanFailure(result: CliResult): void {
  expect([1, 3]).toContain(result.code);
  expect(result.stdout).toBe('');
  // Exactly one error, and never a stack trace.
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  cli = new Cli();
  started = await cli.start();
  cli.usePort(started.port);
  // The faults are the subject, not approvals: the scripted extension answers clicks, not the read of
  // the element approvals make first, so a person allowed the page classes.
  allowClasses(cli.home, ['submit', 'send', 'delete']);
  ext = new ReconnectingExtension(started.port, await claimToken(started.port, started.pairingCode));
  ext.start();
  await until('the extension to connect', () => extensionConnected());
}, 60_000);

afterAll(async () => {
  ext?.stop();
  await cli?.dispose();
});

describe('daemon process faults', () => {
  it('survives SIGKILL with a request in flight: one answer, stale lock reclaimed, no replay', async () => {
    const opened = await cli.ok<{ session: string }>(['tab', 'open', '--url', 'http://x/']);
    ext.hold = (req) => req.action === 'click';
    const click = cli.run(['click', '-s', opened.session, '--selector', '#a', '--timeout', '20000']);
    const inFlight = await until('the click to reach the extension', () =>
      ext.received.find((r) => r.action === 'click'),
    );
    const pid = started.pid;
    process.kill(pid, 'SIGKILL');
    expectOneCleanFailure(await click);
    await until('the daemon to be gone', () => !isAlive(pid));
    // The lock still names the dead daemon: the next start must take it over.
    expect(readFileSync(join(cli.home, 'bproxy.pid'), 'utf8').trim()).toBe(String(pid));

    const again = await cli.start();
    expect(again.pid).not.toBe(pid);
    expect(again.port).toBe(started.port);
    started = again;
    await until('the extension to reconnect with its stored token', () => extensionConnected(), 20_000);
    // The old execution finishes now; its answer has no request to settle, and nothing is re-sent.
    ext.release(inFlight.id);
    const fresh = await cli.ok<{ session: string }>(['tab', 'open', '--url', 'http://x/']);
    expect((await cli.ok<{ text: string }>(['text', '-s', fresh.session])).text).toBe('hello');
    expect(ext.received.filter((r) => r.id === inFlight.id)).toHaveLength(1);
    expect(ext.executions.get(inFlight.id)).toBe(1);
    expect(await cli.failCode(['text', '-s', opened.session])).toBe('SESSION_NOT_FOUND');
    expect((await status()).pending).toBe(0);
  }, 60_000);

  it('drains on SIGTERM: the request in flight is answered, newcomers get SHUTTING_DOWN, then it exits clean', async () => {
    const opened = await cli.ok<{ session: string }>(['tab', 'open', '--url', 'http://x/']);
    ext.hold = (req) => req.action === 'click';
    const click = cli.run(['click', '-s', opened.session, '--selector', '#b', '--timeout', '20000']);
    const inFlight = await until('the click to reach the extension', () =>
      ext.received.find((r) => r.action === 'click' && ext.held(r.id)),
    );
    const pid = started.pid;
    process.kill(pid, 'SIGTERM');
    const refused = await until('a newcomer to be refused', async () => {
      const r = await cli.run(['session', 'list']);
      return r.code !== 0 ? r : undefined;
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('SHUTTING_DOWN');
    ext.release(inFlight.id);
    const answered = await click;
    expect(answered.code, answered.stderr).toBe(0);
    await until('the daemon to exit', () => !isAlive(pid), 15_000);
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(cli.home, file)), file).toBe(false);
    expect((await cli.run(['session', 'list'])).code).toBe(3);
    expect(ext.executions.get(inFlight.id)).toBe(1);
  }, 60_000);
});
