/**
 * One running PTY: the program started on a pseudo-terminal by @lydell/node-pty (loaded on the first
 * spawn, so a host whose platform has no prebuilt binary still serves everything else), its output read
 * as bytes and decoded here with a StringDecoder so that a character split across two reads arrives
 * whole, and its end: SIGHUP to everything in its session (what closing a terminal window sends: a
 * shell exits on it, and passes it to its jobs), then SIGKILL after a grace period to whatever is left.
 * The first process leads its own session (node-pty calls setsid), so nothing the terminal started
 * survives it. Every PTY still running is known here, so that a host about to exit can SIGKILL them
 * all synchronously (killEveryTerminalNow): Chrome kills the host about 2 s after the port closes, and
 * a host that died would leave its terminals to run on.
 *
 * Output is paused (node-pty pause/resume) while the browser has not taken what was sent: the PTY's
 * kernel buffer then fills and the program blocks on its writes, instead of the host buffering
 * without bound.
 */
import { StringDecoder } from 'node:string_decoder';
import type * as NodePtyModule from '@lydell/node-pty';
import type { IPty } from '@lydell/node-pty';
import { sessionAlive, signalSession } from './process-tree';

type NodePty = typeof NodePtyModule;

let loaded: Promise<NodePty> | null = null;
function loadPty(): Promise<NodePty> {
  loaded ??= import('@lydell/node-pty');
  return loaded;
}

export interface SpawnOptions {
  readonly command: readonly [string, ...string[]];
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly cols: number;
  readonly rows: number;
  readonly onOutput: (text: string) => void;
  readonly onExit: (exitCode: number | null, signal: string | null) => void;
}

const SIGNAL_NAMES: Readonly<Record<number, string>> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  9: 'SIGKILL',
  15: 'SIGTERM',
};

/** The PTYs whose program runs, whose end is under way, or whose program left jobs running. */
const live = new Set<PtyProcess>();

/** SIGKILL to the whole session of every PTY still known; synchronous, for a host about to exit. */
export function killEveryTerminalNow(): void {
  for (const pty of live) pty.killNow();
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PtyProcess {
  private exited = false;
  private readonly ended: Promise<void>;
  private paused = false;

  private constructor(
    private readonly pty: IPty,
    options: SpawnOptions,
  ) {
    const decoder = new StringDecoder('utf8');
    // With `encoding: null` node-pty hands over the bytes it read (its type says string).
    pty.onData((data: string | Buffer) => {
      const text = typeof data === 'string' ? data : decoder.write(data);
      if (text !== '') options.onOutput(text);
    });
    this.ended = new Promise((resolve) => {
      pty.onExit(({ exitCode, signal }) => {
        this.exited = true;
        if (!sessionAlive(pty.pid)) live.delete(this);
        const rest = decoder.end();
        if (rest !== '') options.onOutput(rest);
        const name = signal !== undefined && signal > 0 ? (SIGNAL_NAMES[signal] ?? `SIG${signal}`) : null;
        options.onExit(name === null ? exitCode : null, name);
        resolve();
      });
    });
  }

  static async spawn(options: SpawnOptions): Promise<PtyProcess> {
    const { spawn } = await loadPty();
    const [program, ...args] = options.command;
    const pty = spawn(program, args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
      encoding: null,
    });
    const started = new PtyProcess(pty, options);
    live.add(started);
    return started;
  }

  get pid(): number {
    return this.pty.pid;
  }

  get running(): boolean {
    return !this.exited;
  }

  write(data: string): void {
    if (!this.exited) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.exited) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The PTY closed between the check and the call.
    }
  }

  /**
   * Stops reading the program's output (true) or reads it again (false): the browser's side is full,
   * or drained again.
   */
  hold(held: boolean): void {
    if (this.exited || held === this.paused) return;
    this.paused = held;
    if (held) this.pty.pause();
    else this.pty.resume();
  }

  /** SIGKILL to the whole session at once, synchronously. */
  killNow(): void {
    signalSession(this.pty.pid, 'SIGKILL', !this.exited);
  }

  /**
   * Ends the process and everything in its session: SIGHUP now, SIGKILL to what is left after
   * `graceMs` (a job that ignores SIGHUP). Resolves when the first process has exited and its session
   * is empty.
   */
  async terminate(graceMs: number): Promise<void> {
    const leader = this.pty.pid;
    // Output still held would keep the PTY from seeing its end.
    this.hold(false);
    signalSession(leader, 'SIGHUP');
    const until = Date.now() + graceMs;
    while (sessionAlive(leader) && Date.now() < until) await pause(25);
    if (sessionAlive(leader)) {
      signalSession(leader, 'SIGKILL');
      // SIGKILL lands at once, but the kernel tears a process down in its own time.
      const killedBy = Date.now() + 1_000;
      while (sessionAlive(leader) && Date.now() < killedBy) await pause(10);
    }
    await this.ended;
    live.delete(this);
  }
}
