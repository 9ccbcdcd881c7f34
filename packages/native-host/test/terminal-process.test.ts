/**
 * Terminals through the real host process, as a browser runs it (real framing on real pipes) with
 * /bin/sh on a real PTY: nothing spawns before the first key; keys and output round-trip with the tab's
 * session in the environment; resize reaches the PTY; a character split across two reads arrives whole;
 * a view that reattaches gets the recent output replayed and the same process; closing a terminal ends
 * everything it started (SIGHUP, then SIGKILL for a job that ignores it), leaving no orphan; a closed
 * port ends every terminal within the 2 s Chrome leaves the host; a flood of output while the browser
 * reads nothing keeps the host's memory bounded, and flows again once it reads. And the doors: another
 * extension is refused before any frame, and the host listens on no socket.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostToExtension } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OUR_ORIGIN,
  buildBundles,
  cleanup,
  exitWithin,
  spawnHost,
  waitFor,
  type Bundles,
  type HostProcess,
} from './helpers/host-process';
import { HELLO } from './helpers/port';
import { alive, childrenOf, listeningSockets } from './helpers/processes';

let bundles: Bundles | null = null;
const homes: string[] = [];

beforeAll(async () => {
  bundles = await buildBundles();
}, 60_000);
afterAll(() => cleanup(homes, bundles), 30_000);

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-term-home-'));
  homes.push(dir);
  return dir;
}

function hostWith(origin: string, stateHome: string, env: Record<string, string> = {}): HostProcess {
  if (bundles === null) throw new Error('not built');
  return spawnHost([process.execPath, bundles.nativeHost], [origin], {
    HOME: stateHome,
    BPROXY_HOME: stateHome,
    BPROXY_PORT: '0',
    BPROXY_TERMINAL_COMMAND: '/bin/sh',
    ...env,
  });
}

async function welcomed(stateHome: string, env: Record<string, string> = {}): Promise<HostProcess> {
  const host = hostWith(OUR_ORIGIN, stateHome, env);
  host.browser.send(HELLO);
  await host.browser.next((m) => m.type === 'welcome');
  return host;
}

/** Everything terminal `termId` printed so far (replays included). */
function screen(host: HostProcess, termId: string): string {
  return host.browser.received
    .filter((m): m is Extract<HostToExtension, { type: 'pty.output' }> => m.type === 'pty.output')
    .filter((m) => m.termId === termId)
    .map((m) => m.data)
    .join('');
}

/** The first capture of `pattern` in what the terminal printed, within `ms`. */
async function printed(host: HostProcess, termId: string, pattern: RegExp, ms = 10_000): Promise<string> {
  let found: string | undefined;
  await waitFor(() => {
    found = pattern.exec(screen(host, termId))?.[1];
    return found !== undefined;
  }, ms).catch(() => {
    throw new Error(
      `${pattern} not printed within ${ms} ms; the screen: ${JSON.stringify(screen(host, termId).slice(-500))}`,
    );
  });
  return found ?? '';
}

/** Every message sent so far has been read by the host (it answers in order). */
async function synced(host: HostProcess, id: string): Promise<void> {
  host.browser.send({ type: 'daemon.locate', id, start: false });
  await host.browser.next((m) => m.type === 'daemon.location' && m.id === id);
}

/** The resident memory of `pid`, from /proc. */
function rssBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

const type = (host: HostProcess, termId: string, data: string) =>
  host.browser.send({ type: 'pty.input', termId, data });

describe('a terminal on the real host', () => {
  it('spawns nothing until the first key, then runs /bin/sh with the tab’s session and the CLI on PATH', async () => {
    const stateHome = home();
    const host = await welcomed(stateHome);
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24, session: 'abcdef' });
    await synced(host, 's1');
    expect(childrenOf(host.child.pid ?? -1)).toEqual([]);
    // A second terminal opened after it gets a key and starts: had the first one started on its open,
    // its program would be running by the time the second one's prints.
    host.browser.send({ type: 'pty.open', termId: 't2', cols: 80, rows: 24 });
    type(host, 't2', 'echo "other-$((1+1))"\r');
    expect(await printed(host, 't2', /(other-2)/)).toBe('other-2');
    expect(childrenOf(host.child.pid ?? -1)).toHaveLength(1);
    expect(screen(host, 't1')).toBe('');

    type(host, 't1', 'echo "round-$((40+2)) $BPROXY_SESSION $BPROXY_HOME"\r');
    expect(await printed(host, 't1', /(round-42 \S+ \S+)/)).toBe(`round-42 abcdef ${stateHome}`);
    expect(childrenOf(host.child.pid ?? -1)).toHaveLength(2);
    type(host, 't1', 'echo "cli=$(command -v bproxy)"\r');
    expect(await printed(host, 't1', /cli=(\/\S+)/)).toBe(join(stateHome, 'host', 'bin', 'bproxy'));
    host.child.stdin.end();
    expect((await exitWithin(host, 10_000)).code).toBe(0);
  }, 30_000);

  it('gives a terminal without a session no BPROXY_SESSION, though the host has one', async () => {
    const host = await welcomed(home(), { BPROXY_SESSION: 'hostown' });
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    type(host, 't1', 'echo "session=[${BPROXY_SESSION-unset}]"\r');
    expect(await printed(host, 't1', /session=\[(\w+)\]/)).toBe('unset');
    host.browser.send({ type: 'pty.open', termId: 't2', cols: 80, rows: 24, session: 'abcdef' });
    type(host, 't2', 'echo "session=[${BPROXY_SESSION-unset}]"\r');
    expect(await printed(host, 't2', /session=\[(\w+)\]/)).toBe('abcdef');
    host.child.stdin.end();
    expect((await exitWithin(host, 10_000)).code).toBe(0);
  }, 30_000);

  it('logs a terminal by its program, pid and session only: no argument, key or output reaches host.log', async () => {
    const stateHome = home();
    const host = await welcomed(stateHome, { BPROXY_TERMINAL_COMMAND: '/bin/sh -s ARGSECRET' });
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24, session: 'abcdef' });
    host.browser.send({ type: 'pty.resize', termId: 't1', cols: 100, rows: 30 });
    type(host, 't1', 'echo "typed-$((6*7)) $1"\r');
    // The program really had the argument and ran the keys.
    expect(await printed(host, 't1', /(typed-42 \w+)/)).toBe('typed-42 ARGSECRET');
    host.browser.send({ type: 'pty.close', termId: 't1' });
    await host.browser.next((m) => m.type === 'pty.exit' && m.termId === 't1', 10_000);
    host.child.stdin.end();
    await exitWithin(host, 10_000);
    const log = readFileSync(join(stateHome, 'host', 'host.log'), 'utf8');
    const started = log.split('\n').find((line) => line.includes('"terminal_started"'));
    expect(started).toContain('"program":"/bin/sh"');
    expect(started).toContain('"session":"abcdef"');
    expect(log).toContain('"terminal_exited"');
    for (const secret of ['ARGSECRET', 'typed-', '6*7', 'pty.input', 'pty.resize'])
      expect(log).not.toContain(secret);
  }, 30_000);

  it('resizes the PTY', async () => {
    const host = await welcomed(home());
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    type(host, 't1', 'echo "size=$(stty size)"\r');
    expect(await printed(host, 't1', /size=(\d+ \d+)/)).toBe('24 80');
    host.browser.send({ type: 'pty.resize', termId: 't1', cols: 132, rows: 43 });
    type(host, 't1', 'echo "after=$(stty size)"\r');
    expect(await printed(host, 't1', /after=(\d+ \d+)/)).toBe('43 132');
    host.child.stdin.end();
    await exitWithin(host, 10_000);
  }, 30_000);

  it('delivers a UTF-8 character whose bytes the PTY gave in two reads as one character', async () => {
    const host = await welcomed(home());
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    // € is E2 82 AC: the pause between the two printf calls makes the PTY deliver it in two reads.
    type(host, 't1', "printf 'U%s:A\\342\\202' 8; sleep 0.3; printf '\\254B:%s\\n' end\r");
    expect(await printed(host, 't1', /U8:(.*?):end/)).toBe('A€B');
    expect(screen(host, 't1')).not.toContain('\uFFFD');
    host.child.stdin.end();
    await exitWithin(host, 10_000);
  }, 30_000);

  it('keeps a detached terminal running and replays its recent output to the view that reattaches', async () => {
    const host = await welcomed(home());
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    type(host, 't1', 'echo "before=$$"\r');
    const shell = await printed(host, 't1', /before=(\d+)/);
    host.browser.send({ type: 'pty.detach', termId: 't1' });
    const seen = host.browser.received.length;
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    const replay = await host.browser.next((m) => m.type === 'pty.output' && m.replay === true);
    expect(host.browser.received.indexOf(replay)).toBeGreaterThanOrEqual(seen);
    if (replay.type !== 'pty.output') throw new Error('not output');
    expect(replay.data).toContain(`before=${shell}`);
    type(host, 't1', 'echo "after=$$"\r');
    expect(await printed(host, 't1', /after=(\d+)/)).toBe(shell);
    host.child.stdin.end();
    await exitWithin(host, 10_000);
  }, 30_000);

  it('ends everything the terminal started on pty.close: the shell on SIGHUP, a job ignoring it by SIGKILL', async () => {
    const stateHome = home();
    const host = await welcomed(stateHome);
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    // One job as any, one that ignores SIGHUP (SIG_IGN survives exec, as with `nohup`).
    type(host, 't1', `sleep 1000 & a=$!; (trap '' HUP; exec sleep 1001) & echo "pids=$a,$!,$$"\r`);
    const [plain, immune, shellPid] = (await printed(host, 't1', /pids=(\d+,\d+,\d+)/))
      .split(',')
      .map(Number);
    if (plain === undefined || immune === undefined || shellPid === undefined) throw new Error('no pids');
    expect([plain, immune, shellPid].every(alive)).toBe(true);

    host.browser.send({ type: 'pty.close', termId: 't1' });
    // The shell exits on the SIGHUP, before the grace runs out for the job that ignores it.
    await waitFor(() => !alive(shellPid), 5_000);
    expect(alive(immune)).toBe(true);
    const exit = await host.browser.next((m) => m.type === 'pty.exit' && m.termId === 't1', 10_000);
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGHUP' });
    await waitFor(() => !alive(plain) && !alive(immune), 5_000);
    expect(childrenOf(host.child.pid ?? -1)).toEqual([]);
    await synced(host, 'after-close');
    expect(childrenOf(host.child.pid ?? -1)).toEqual([]);
    expect(readFileSync(join(stateHome, 'host', 'host.log'), 'utf8')).not.toContain('sleep 1000');
    host.child.stdin.end();
    await exitWithin(host, 10_000);
  }, 30_000);

  it('ends every terminal, jobs ignoring SIGHUP included, within 2 s of the browser closing the port', async () => {
    const host = await welcomed(home());
    const pids: number[] = [];
    for (const termId of ['a', 'b']) {
      host.browser.send({ type: 'pty.open', termId, cols: 80, rows: 24 });
      type(host, termId, `(trap '' HUP; exec sleep 1000) & echo "job=$! shell=$$"\r`);
      const found = await printed(host, termId, /(job=\d+ shell=\d+)/);
      pids.push(...found.split(' ').map((pair) => Number(pair.split('=')[1])));
    }
    const closedAt = Date.now();
    host.child.stdin.end();
    // Chrome kills a host about 2 s after its port closes: the terminals must be gone by then.
    expect(await exitWithin(host, 15_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - closedAt).toBeLessThan(2_000);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  }, 30_000);

  it('holds a flooding program while the browser reads nothing, within bounded host memory, then flows again', async () => {
    const host = await welcomed(home());
    const pid = host.child.pid ?? -1;
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    type(host, 't1', 'echo "ready"\r');
    await printed(host, 't1', /(ready)/);
    const before = rssBytes(pid);

    host.child.stdout.pause();
    type(host, 't1', 'yes flood\r');
    // A measuring window, not a synchronisation: unread, `yes` would grow the host by far more.
    let peak = before;
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      peak = Math.max(peak, rssBytes(pid));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(peak - before).toBeLessThan(48 * 1024 * 1024);

    const seen = screen(host, 't1').length;
    host.child.stdout.resume();
    await waitFor(() => screen(host, 't1').length > seen + 1024 * 1024, 15_000);
    type(host, 't1', '\x03');
    host.child.stdin.end();
    expect((await exitWithin(host, 15_000)).code).toBe(0);
  }, 45_000);
});

describe('the doors to a terminal', () => {
  it('refuses another extension before any frame: the host exits and nothing spawns', async () => {
    const stateHome = home();
    const host = hostWith('chrome-extension://abcdefghijklmnopabcdefghijklmnop/', stateHome);
    host.browser.send(HELLO);
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    host.browser.send({ type: 'pty.input', termId: 't1', data: 'touch owned\r' });
    expect(await exitWithin(host, 10_000)).toEqual({ code: 1, signal: null });
    expect(host.stdout().length).toBe(0);
    const log = readFileSync(join(stateHome, 'host', 'host.log'), 'utf8');
    expect(log).toContain('"event":"caller_refused"');
    expect(log).not.toContain('terminal_started');
  });

  it('listens on no socket while a terminal runs: the native port is the only way in', async () => {
    const host = await welcomed(home());
    // Make the host open the sockets it would ever open: a daemon lookup and a running terminal.
    host.browser.send({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 });
    type(host, 't1', 'echo "up=1"\r');
    await printed(host, 't1', /(up=1)/);
    const pid = host.child.pid ?? -1;
    expect(listeningSockets(pid)).toEqual([]);
    for (const child of childrenOf(pid)) expect(listeningSockets(child)).toEqual([]);
    // The check itself sees a listener when there is one: this test process's.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    expect(listeningSockets(process.pid).length).toBeGreaterThan(0);
    await new Promise((resolve) => server.close(resolve));
    host.child.stdin.end();
    await exitWithin(host, 10_000);
  }, 30_000);
});
