import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { StartOutputSchema } from '@bproxy/protocol';
import { isOurDaemon, parseStartReport } from '@bproxy/client/lifecycle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, parseJsonLine, type Harness } from './helpers/cli-harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.cleanup();
});

/** A PID that is certainly dead: a child we started and waited for. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

describe('the lockfile', () => {
  it('takes over a stale lock left by a dead process, with its transient files', async () => {
    const home = h.home();
    const dead = await deadPid();
    writeFileSync(join(home, 'bproxy.pid'), `${dead}\n`, { mode: 0o600 });
    writeFileSync(join(home, 'port'), '1\n', { mode: 0o600 });
    writeFileSync(join(home, 'pairing.json'), '{}', { mode: 0o600 });

    const before = await h.run(['service', 'status'], { home });
    expect(parseJsonLine(before.stdout)).toMatchObject({ running: false });

    const start = await h.run(['service', 'start'], { home });
    expect(start.stderr).toBe('');
    const started = StartOutputSchema.parse(parseJsonLine(start.stdout));
    expect(started.pid).not.toBe(dead);
    expect(readFileSync(join(home, 'bproxy.pid'), 'utf8')).toBe(`${started.pid}\n`);
    expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
  });

  it('does not mistake a reused PID (a live process that is not our daemon) for a running daemon', async () => {
    const home = h.home();
    // The test runner itself: alive, and certainly not a bproxy daemon of this home.
    writeFileSync(join(home, 'bproxy.pid'), `${process.pid}\n`, { mode: 0o600 });

    const status = await h.run(['service', 'status'], { home });
    expect(parseJsonLine(status.stdout)).toMatchObject({ running: false });
    const call = await h.run(['debug', 'status'], { home });
    expect(call.code).toBe(3);

    const start = await h.run(['service', 'start'], { home });
    expect(start.code).toBe(0);
    const started = StartOutputSchema.parse(parseJsonLine(start.stdout));
    expect(started.pid).not.toBe(process.pid);
    expect(isOurDaemon(started.pid, home)).toBe(true);
    expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
  });

  it('treats a lockfile holding garbage as stale', async () => {
    const home = h.home();
    writeFileSync(join(home, 'bproxy.pid'), 'not a pid\n', { mode: 0o600 });
    const status = await h.run(['service', 'status'], { home });
    expect(parseJsonLine(status.stdout)).toMatchObject({ running: false });
    const start = await h.run(['service', 'start'], { home });
    expect(start.code).toBe(0);
    expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
  });

  it('lets exactly one of several simultaneous starts win; the others fail with a plain message', async () => {
    const home = h.home();
    const runs = await Promise.all([1, 2, 3].map(() => h.run(['service', 'start'], { home })));
    const winners = runs.filter((r) => r.code === 0);
    const losers = runs.filter((r) => r.code !== 0);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(2);
    const winner = StartOutputSchema.parse(parseJsonLine(winners[0]?.stdout ?? ''));
    for (const loser of losers) {
      expect(loser.code).toBe(1);
      expect(loser.stdout).toBe('');
      expect(loser.stderr).toMatch(/^bproxy: a bproxy daemon is already running for .+ \(pid \d+/);
    }
    expect(readFileSync(join(home, 'bproxy.pid'), 'utf8')).toBe(`${winner.pid}\n`);
    const status = await h.run(['service', 'status'], { home });
    expect(parseJsonLine(status.stdout)).toMatchObject({ running: true, pid: winner.pid, port: winner.port });
    expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
  });

  it.each(['no lockfile', 'a stale lockfile'])(
    'decides a race between daemons started directly (no CLI pre-check) over %s',
    async (given) => {
      const home = h.home();
      if (given === 'a stale lockfile')
        writeFileSync(join(home, 'bproxy.pid'), `${await deadPid()}\n`, { mode: 0o600 });
      const daemon = join(dirname(h.cli), 'daemon.mjs');
      const reports = await Promise.all(
        [1, 2, 3, 4].map(
          () =>
            new Promise<string>((resolve, reject) => {
              const child = spawn(process.execPath, [daemon, '--status-fd', '3'], {
                stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
                env: { PATH: process.env.PATH ?? '', BPROXY_HOME: home, BPROXY_PORT: '0' },
              });
              let text = '';
              const pipe = child.stdio[3] as Readable;
              pipe.setEncoding('utf8');
              pipe.on('data', (chunk: string) => (text += chunk));
              pipe.on('close', () => resolve(text));
              child.on('error', reject);
            }),
        ),
      );
      const parsed = reports.map((line) => parseStartReport(line.trim()));
      const ok = parsed.filter((r) => r?.ok === true);
      const refused = parsed.filter((r) => r?.ok === false);
      expect(ok).toHaveLength(1);
      expect(refused).toHaveLength(3);
      for (const r of refused) expect(r).toMatchObject({ kind: 'already-running' });
      const status = await h.run(['service', 'status'], { home });
      expect(parseJsonLine(status.stdout)).toMatchObject({ running: true, pid: ok[0]?.ok ? ok[0].pid : -1 });
      expect(await h.run(['service', 'stop'], { home })).toMatchObject({ code: 0 });
    },
  );
});
