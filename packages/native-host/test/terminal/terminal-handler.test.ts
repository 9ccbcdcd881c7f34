/**
 * The terminal handler's clock, in process with a real /bin/sh on a real PTY and short timers: a view
 * that stays away past the detach window ends the terminal (SIGHUP: the shell exits on it), and nothing
 * starts again until a key is pressed; closing ends a shell well before the SIGKILL grace, and a job
 * that ignores SIGHUP goes with the SIGKILL after it. And the output ring keeps the newest output within
 * its byte budget, never splitting a character.
 */
import type { HostToExtension } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import type { DaemonAccess } from '../../src/daemon/daemon-access';
import { SILENT_LOG } from '../../src/host-log';
import { OutputRing } from '../../src/terminal/output-ring';
import { TerminalHandler } from '../../src/terminal/terminal-handler';
import { waitFor } from '../helpers/host-process';
import { alive } from '../helpers/processes';

const noDaemon = {} as DaemonAccess;

/** The browser takes everything at once. */
const alwaysDrained = { full: false, onDrain: () => undefined };

function handler(killGraceMs = 300): { terminals: TerminalHandler; sent: HostToExtension[] } {
  const home = process.env.TMPDIR ?? '/tmp';
  const terminals = new TerminalHandler(
    {
      env: { PATH: '/usr/bin:/bin', HOME: home },
      home,
      log: SILENT_LOG,
      daemon: noDaemon,
      output: alwaysDrained,
    },
    { command: ['/bin/sh'], detachMs: 150, killGraceMs },
  );
  return { terminals, sent: [] };
}

function printedText(sent: HostToExtension[]): string {
  return sent.map((m) => (m.type === 'pty.output' ? m.data : '')).join('');
}

describe('a detached terminal', () => {
  it('ends after the detach window with SIGHUP, and stays ended until a key is pressed', async () => {
    const { terminals, sent } = handler();
    const emit = (m: HostToExtension) => sent.push(m);
    await terminals.handle({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, emit);
    await terminals.handle({ type: 'pty.input', termId: 't1', data: 'echo "pid=$$"\r' }, emit);
    await waitFor(() => /pid=\d+/.test(printedText(sent)), 5_000);
    const shell = Number(/pid=(\d+)/.exec(printedText(sent))?.[1]);
    await terminals.handle({ type: 'pty.detach', termId: 't1' }, emit);
    await waitFor(() => sent.some((m) => m.type === 'pty.exit'), 5_000);
    expect(sent.find((m) => m.type === 'pty.exit')).toEqual({
      type: 'pty.exit',
      termId: 't1',
      exitCode: null,
      signal: 'SIGHUP',
    });
    expect(alive(shell)).toBe(false);

    // Reopening the view finds a fresh terminal that has not started, and hears why the old one ended.
    const before = sent.length;
    await terminals.handle({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, emit);
    expect(sent.slice(before)).toEqual([
      { type: 'pty.exit', termId: 't1', exitCode: null, signal: 'SIGHUP', reason: 'detach_expired' },
    ]);
    // Once: the terminal is a new one now.
    const after = sent.length;
    await terminals.handle({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, emit);
    expect(sent.slice(after)).toEqual([]);
    await terminals.close();
  }, 15_000);

  it('is kept, with its output, when the view comes back within the window', async () => {
    const { terminals, sent } = handler();
    const emit = (m: HostToExtension) => sent.push(m);
    await terminals.handle({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, emit);
    await terminals.handle({ type: 'pty.input', termId: 't1', data: 'echo "mark=$((6*7))"\r' }, emit);
    await waitFor(() => printedText(sent).includes('mark=42'), 5_000);
    await terminals.handle({ type: 'pty.detach', termId: 't1' }, emit);
    await terminals.handle({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, emit);
    const replay = sent.at(-1);
    expect(replay).toMatchObject({ type: 'pty.output', replay: true });
    expect(replay?.type === 'pty.output' && replay.data.includes('mark=42')).toBe(true);
    // The shell itself outlives the detach window (150 ms) before it answers: it was not ended.
    await terminals.handle(
      { type: 'pty.input', termId: 't1', data: 'sleep 0.5; echo "still=$((1+1))"\r' },
      emit,
    );
    await waitFor(() => printedText(sent).includes('still=2'), 5_000);
    expect(sent.some((m) => m.type === 'pty.exit')).toBe(false);
    await terminals.close();
    expect(sent.some((m) => m.type === 'pty.exit')).toBe(true);
  }, 15_000);
});

describe('closing a terminal', () => {
  const pidsIn = (text: string, name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(text)?.[1]);

  it('ends the shell on SIGHUP well before the SIGKILL grace, then SIGKILLs a job that ignores SIGHUP', async () => {
    const graceMs = 4_000;
    const { terminals, sent } = handler(graceMs);
    const emit = (m: HostToExtension) => sent.push(m);
    await terminals.handle({ type: 'pty.open', termId: 't1', cols: 80, rows: 24 }, emit);
    // SIG_IGN survives exec: this sleep ignores SIGHUP as a `nohup`ed job would. The job prints its
    // own pid once the trap is set (not the shell's `$!` at fork time, which a close could beat).
    const line = `(trap '' HUP; exec sh -c 'echo "immune=$$"; exec sleep 1000') & echo "shell=$$"\r`;
    await terminals.handle({ type: 'pty.input', termId: 't1', data: line }, emit);
    await waitFor(() => /immune=\d+/.test(printedText(sent)) && /shell=\d+/.test(printedText(sent)), 5_000);
    const immune = pidsIn(printedText(sent), 'immune');
    const shell = pidsIn(printedText(sent), 'shell');
    expect(alive(immune) && alive(shell)).toBe(true);

    const closedAt = Date.now();
    await terminals.handle({ type: 'pty.close', termId: 't1' }, emit);
    await waitFor(() => !alive(shell), graceMs);
    const shellGoneMs = Date.now() - closedAt;
    expect(shellGoneMs).toBeLessThan(graceMs / 2);
    // The job ignored SIGHUP: it lives until the grace ends, then the SIGKILL takes it.
    expect(alive(immune)).toBe(true);
    await terminals.close();
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(graceMs);
    expect(alive(immune)).toBe(false);
    expect(sent.find((m) => m.type === 'pty.exit')).toMatchObject({ exitCode: null, signal: 'SIGHUP' });
  }, 20_000);
});

describe('the output ring', () => {
  it('keeps the newest output within its byte budget', () => {
    const ring = new OutputRing(10);
    ring.push('abcdef');
    ring.push('ghijkl');
    expect(ring.text()).toBe('ghijkl');
    ring.push('mn');
    expect(ring.text()).toBe('ghijklmn');
    expect(ring.bytes).toBe(8);
  });

  it('keeps the tail of a piece larger than the ring, cut between characters', () => {
    const ring = new OutputRing(7);
    ring.push('ab€€€');
    expect(ring.text()).toBe('€€');
    expect(ring.bytes).toBe(6);
  });
});
