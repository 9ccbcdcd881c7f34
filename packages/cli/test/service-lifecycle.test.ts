import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  StartOutputSchema,
  StatusOutputSchema,
  StopOutputSchema,
  BPROXY_VERSION,
  PROTOCOL_VERSION,
} from '@bproxy/protocol';
import { processState } from '@bproxy/client/lifecycle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, parseJsonLine, waitFor, type Harness } from './helpers/cli-harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.cleanup();
});

describe('bproxy service start/status/stop', () => {
  it('prints exactly the lifecycle JSON for start, status and stop', async () => {
    const home = h.home();
    const start = await h.run(['service', 'start'], { home });
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    const started = StartOutputSchema.parse(parseJsonLine(start.stdout));
    expect(Object.keys(parseJsonLine(start.stdout) as object)).toEqual([
      'running',
      'pid',
      'port',
      'pairingCode',
      'pairingExpiresAt',
    ]);
    expect(started.pairingCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(started.pairingExpiresAt).toBeGreaterThan(Date.now());
    // BPROXY_PORT=0: the port actually bound is the one reported and written to the port file.
    expect(started.port).toBeGreaterThan(0);
    expect(readFileSync(join(home, 'port'), 'utf8').trim()).toBe(String(started.port));
    expect(readFileSync(join(home, 'bproxy.pid'), 'utf8').trim()).toBe(String(started.pid));

    const status = await h.run(['service', 'status'], { home });
    expect(status.code).toBe(0);
    expect(StatusOutputSchema.parse(parseJsonLine(status.stdout))).toEqual({
      running: true,
      pid: started.pid,
      port: started.port,
      version: BPROXY_VERSION,
      protocolVersion: PROTOCOL_VERSION,
    });

    const stop = await h.run(['service', 'stop'], { home });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe('{"running":false}\n');
    StopOutputSchema.parse(parseJsonLine(stop.stdout));
    expect(processState(started.pid)).toBe('dead');

    const after = await h.run(['service', 'status'], { home });
    expect(parseJsonLine(after.stdout)).toEqual({
      running: false,
      version: BPROXY_VERSION,
      protocolVersion: PROTOCOL_VERSION,
    });
  });

  it('writes every state file with mode 0600 in a 0700 home, pairing.json with the printed code', async () => {
    const home = join(h.home(), 'nested', 'state');
    const start = await h.run(['service', 'start'], { home });
    expect(start.code).toBe(0);
    const started = StartOutputSchema.parse(parseJsonLine(start.stdout));
    expect(statSync(home).mode & 0o777).toBe(0o700);
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json']) {
      expect(statSync(join(home, file)).mode & 0o777, file).toBe(0o600);
    }
    expect(readFileSync(join(home, 'token'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    const pairing = JSON.parse(readFileSync(join(home, 'pairing.json'), 'utf8')) as Record<string, unknown>;
    expect(pairing).toEqual({
      pairingCode: started.pairingCode,
      pairingExpiresAt: started.pairingExpiresAt,
      issuedAt: expect.any(Number),
    });
    expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
  });

  it("moves --cdp-url into the daemon's environment, out of its argv", async () => {
    const home = h.home();
    const url = 'ws://127.0.0.1:9/chromium?token=FARMSECRET0123456789';
    const start = await h.run(['service', 'start', '--cdp-url', url], { home });
    expect(start.code).toBe(0);
    const { pid } = StartOutputSchema.parse(parseJsonLine(start.stdout));
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      expect(argv).toContain('--status-fd');
      expect(argv).not.toContain('FARMSECRET');
      // It did reach the daemon, in its environment (which only the same user can read).
      expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain(`BPROXY_CDP_URL=${url}`);
    } finally {
      expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
    }
  });

  it('on SIGTERM drains, removes pid, port, token and pairing.json, and keeps extension-token', async () => {
    const home = h.home();
    const token = 'a'.repeat(43);
    writeFileSync(join(home, 'extension-token'), `${token}\n`, { mode: 0o600 });
    const start = await h.run(['service', 'start'], { home });
    expect(start.code).toBe(0);
    const { pid } = StartOutputSchema.parse(parseJsonLine(start.stdout));
    process.kill(pid, 'SIGTERM');
    await waitFor(() => processState(pid) === 'dead', 10_000);
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(home, file)), file).toBe(false);
    expect(readFileSync(join(home, 'extension-token'), 'utf8')).toBe(`${token}\n`);
    const log = readdirSync(join(home, 'logs'))
      .map((name) => readFileSync(join(home, 'logs', name), 'utf8'))
      .join('');
    expect(log).toContain('"event":"daemon_stopped"');
  });

  it('stop of a daemon that is not running succeeds with running:false and clears stale files', async () => {
    const home = h.home();
    writeFileSync(join(home, 'bproxy.pid'), '999999\n', { mode: 0o600 });
    writeFileSync(join(home, 'port'), '9\n', { mode: 0o600 });
    const stop = await h.run(['service', 'stop'], { home });
    expect(stop).toMatchObject({ code: 0, stdout: '{"running":false}\n', stderr: '' });
    expect(existsSync(join(home, 'bproxy.pid'))).toBe(false);
    expect(existsSync(join(home, 'port'))).toBe(false);
  });

  it('refuses a second start while a daemon runs, naming the running one', async () => {
    const home = h.home();
    const first = await h.run(['service', 'start'], { home });
    const { pid, port } = StartOutputSchema.parse(parseJsonLine(first.stdout));
    const second = await h.run(['service', 'start'], { home });
    expect(second.code).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `bproxy: a bproxy daemon is already running for ${home} (pid ${pid}, port ${port})\n`,
    );
    expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
  });
});
