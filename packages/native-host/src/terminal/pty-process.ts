/**
 * One running PTY: the program started on a pseudo-terminal by @lydell/node-pty (loaded on the first
 * spawn, so a host whose platform has no prebuilt binary still serves everything else), its output read
 * as bytes and decoded here with a StringDecoder so that a character split across two reads arrives
 * whole, and its end: SIGINT to everything in its session, then SIGKILL after a grace period when
 * anything is left. The first process leads its own session (node-pty calls setsid), so nothing the
 * terminal started survives it.
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

export class PtyProcess {
  private exited = false;
  private readonly ended: Promise<void>;
  private killTimer: NodeJS.Timeout | null = null;

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
    return new PtyProcess(pty, options);
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
   * Ends the process and everything in its session: SIGINT now (what Ctrl-C would send), SIGKILL to
   * what is left after `graceMs`. Resolves when the first process has exited and its session is empty.
   */
  async terminate(graceMs: number): Promise<void> {
    const leader = this.pty.pid;
    signalSession(leader, 'SIGINT');
    this.killTimer ??= setTimeout(() => {
      if (!this.exited || sessionAlive(leader)) signalSession(leader, 'SIGKILL');
    }, graceMs);
    await this.ended;
    // An interactive shell ignores SIGINT, and a job may too: the leader's exit does not end them.
    if (sessionAlive(leader)) await this.untilGone(leader, graceMs + 2_000);
    if (this.killTimer !== null) clearTimeout(this.killTimer);
  }

  private async untilGone(leader: number, withinMs: number): Promise<void> {
    const until = Date.now() + withinMs;
    while (sessionAlive(leader) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    if (sessionAlive(leader)) signalSession(leader, 'SIGKILL');
  }
}
