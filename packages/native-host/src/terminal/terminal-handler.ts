/**
 * The host's terminals, one PTY each, keyed by the termId the panel chose. `pty.open` makes a terminal
 * known (or reattaches a view to it, replaying its recent output and, when it ended, its exit) but
 * spawns nothing: the program starts on the first `pty.input` — a key press — and again only on a key
 * press after it ended. `pty.detach` (the view went away) keeps it for `detachMs` with its output
 * buffered, then ends it; `pty.close` ends it at once; the port's close ends them all. Ending is SIGHUP
 * to the whole session, then SIGKILL after `killGraceMs` (1 s: Chrome kills the host about 2 s after
 * the port closes, and the host must have killed its terminals first). While the browser has not taken
 * what was sent, every terminal's output is held (the program blocks on its writes) until it has.
 */
import { homedir } from 'node:os';
import { removeTerminalSession, writeTerminalSession } from '@bproxy/client/lifecycle';
import type { HostToExtension } from '@bproxy/protocol';
import type { Emit, HandlerContext, HandlerFactory, PortHandler, TerminalMessage } from '../handlers';
import { HostFailure } from '../failure';
import { OUTPUT_RING_BYTES, OutputRing } from './output-ring';
import { PtyProcess } from './pty-process';
import { terminalCommand, terminalEnv, writeCliLauncher } from './terminal-command';

export interface TerminalOptions {
  /** The CLI as a command (`node .../bproxy.mjs`): `bproxy` in a terminal runs it. */
  readonly bproxyCommand?: readonly string[];
  /** What a terminal runs (default: terminalCommand of the host's environment). */
  readonly command?: readonly [string, ...string[]];
  /** How long a detached terminal lives (default 60 s). */
  readonly detachMs?: number;
  /** Between SIGHUP and SIGKILL (default KILL_GRACE_MS). */
  readonly killGraceMs?: number;
  /** Output kept for a reattaching view (default 1 MiB). */
  readonly ringBytes?: number;
}

interface Terminal {
  readonly termId: string;
  cols: number;
  rows: number;
  session: string | undefined;
  process: PtyProcess | null;
  /** Set while the program is being started; keys typed meanwhile wait here. */
  starting: string[] | null;
  exit: Extract<HostToExtension, { type: 'pty.exit' }> | null;
  readonly ring: OutputRing;
  detachTimer: NodeJS.Timeout | null;
  emit: Emit;
}

/** At most this many terminals per host (one per tab is the panel's use). */
const MAX_TERMINALS = 32;
/** How many ended terminals the host remembers, to tell a returning view why its program is gone. */
const MAX_ENDED = 64;

/** Between SIGHUP and SIGKILL: under the 2 s Chrome leaves a host whose port closed. */
export const KILL_GRACE_MS = 1_000;

export class TerminalHandler implements PortHandler<TerminalMessage> {
  private readonly terminals = new Map<string, Terminal>();
  /** Terminals the host ended itself, with how: said to the view that opens them again. */
  private readonly ended = new Map<string, Extract<HostToExtension, { type: 'pty.exit' }>>();
  private readonly ending = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly context: HandlerContext,
    private readonly options: TerminalOptions = {},
  ) {
    context.output.onDrain(() => {
      for (const terminal of this.terminals.values()) terminal.process?.hold(false);
    });
  }

  async handle(message: TerminalMessage, emit: Emit): Promise<void> {
    if (this.closed) return;
    switch (message.type) {
      case 'pty.open':
        this.open(message, emit);
        return;
      case 'pty.input':
        await this.input(this.known(message.termId, emit), message.data);
        return;
      case 'pty.resize': {
        const terminal = this.known(message.termId, emit);
        terminal.cols = message.cols;
        terminal.rows = message.rows;
        terminal.process?.resize(message.cols, message.rows);
        return;
      }
      case 'pty.detach': {
        // Detaching or closing what is gone already (ended, or a host started since) is no error.
        const terminal = this.terminals.get(message.termId);
        if (terminal === undefined || terminal.detachTimer !== null) return;
        terminal.detachTimer = setTimeout(() => {
          this.context.log.info('terminal_detach_expired', { termId: terminal.termId });
          if (terminal.process !== null) this.remember(terminal);
          this.end(terminal);
        }, this.options.detachMs ?? 60_000);
        return;
      }
      case 'pty.close': {
        const terminal = this.terminals.get(message.termId);
        if (terminal !== undefined) this.end(terminal);
        return;
      }
      case 'pty.session': {
        const terminal = this.terminals.get(message.termId);
        if (terminal !== undefined) this.setSession(terminal, message.session);
        return;
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const terminal of [...this.terminals.values()]) this.end(terminal);
    await Promise.all([...this.ending]);
  }

  private open(message: Extract<TerminalMessage, { type: 'pty.open' }>, emit: Emit): void {
    const existing = this.terminals.get(message.termId);
    if (existing === undefined) {
      if (this.terminals.size >= MAX_TERMINALS)
        throw new HostFailure(
          'OVERLOADED',
          `at most ${MAX_TERMINALS} terminals may be open at once: close one`,
        );
      this.terminals.set(message.termId, {
        termId: message.termId,
        cols: message.cols,
        rows: message.rows,
        session: message.session,
        process: null,
        starting: null,
        exit: null,
        ring: new OutputRing(this.options.ringBytes ?? OUTPUT_RING_BYTES),
        detachTimer: null,
        emit,
      });
      // The view came back for a program the host ended meanwhile: it is told why.
      const gone = this.ended.get(message.termId);
      this.ended.delete(message.termId);
      if (gone !== undefined) emit(gone);
      return;
    }
    // A view (re)attached: it hears from now on, and first what it missed.
    existing.emit = emit;
    if (existing.detachTimer !== null) clearTimeout(existing.detachTimer);
    existing.detachTimer = null;
    existing.cols = message.cols;
    existing.rows = message.rows;
    // The tab's session now: the program's environment before it starts, its terminal file after.
    this.setSession(existing, message.session);
    existing.process?.resize(message.cols, message.rows);
    const missed = existing.ring.text();
    if (missed !== '') emit({ type: 'pty.output', termId: existing.termId, data: missed, replay: true });
    if (existing.exit !== null) emit(existing.exit);
  }

  /**
   * The session holding the terminal's tab changed. A running program keeps the BPROXY_SESSION it
   * started with, but `bproxy` there reads the terminal's file, which says the session now.
   */
  private setSession(terminal: Terminal, session: string | undefined): void {
    if (terminal.session === session) return;
    terminal.session = session;
    if (terminal.process !== null || terminal.starting !== null) this.writeSession(terminal);
  }

  /** The terminal's file says its tab's session; a failure is logged (`bproxy` then uses the variable). */
  private writeSession(terminal: Terminal): void {
    try {
      writeTerminalSession(this.context.home, terminal.termId, terminal.session);
    } catch (error) {
      this.context.log.warn('terminal_session_write_failed', {
        termId: terminal.termId,
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  }

  /** Notes that the host ends `terminal`'s running program for a returning view to hear it. */
  private remember(terminal: Terminal): void {
    this.ended.delete(terminal.termId);
    this.ended.set(terminal.termId, {
      type: 'pty.exit',
      termId: terminal.termId,
      exitCode: null,
      signal: 'SIGHUP',
      reason: 'detach_expired',
    });
    for (const oldest of this.ended.keys()) {
      if (this.ended.size <= MAX_ENDED) break;
      this.ended.delete(oldest);
    }
  }

  private known(termId: string, emit: Emit): Terminal {
    const terminal = this.terminals.get(termId);
    if (terminal === undefined)
      throw new HostFailure('BAD_REQUEST', `no terminal ${termId} is open: send pty.open first`);
    terminal.emit = emit;
    return terminal;
  }

  private async input(terminal: Terminal, data: string): Promise<void> {
    if (terminal.process?.running === true) {
      terminal.process.write(data);
      return;
    }
    if (terminal.starting !== null) {
      terminal.starting.push(data);
      return;
    }
    // The first key (or the first after the program ended) starts it; the key itself is not typed
    // into the new program when it only woke an ended terminal.
    const wake = terminal.exit !== null;
    terminal.starting = wake ? [] : [data];
    terminal.exit = null;
    terminal.ring.clear();
    const settled = this.spawn(terminal).then(
      async (started) => {
        const typed = terminal.starting ?? [];
        terminal.starting = null;
        if (this.terminals.get(terminal.termId) !== terminal) {
          // Closed (or the port went) while the program was starting.
          await started.terminate(this.options.killGraceMs ?? KILL_GRACE_MS);
          return;
        }
        terminal.process = started;
        for (const keys of typed) started.write(keys);
      },
      (error: unknown) => {
        terminal.starting = null;
        throw error;
      },
    );
    // close() waits for a start in progress too, and for the end it may bring.
    this.track(settled.catch(() => undefined));
    await settled;
  }

  private async spawn(terminal: Terminal): Promise<PtyProcess> {
    const { env, home, log } = this.context;
    const command = this.options.command ?? terminalCommand(env);
    const binDir = writeCliLauncher(home, this.options.bproxyCommand);
    // `bproxy` in the terminal asks this file for the tab's session (the program's variable ages).
    this.writeSession(terminal);
    const started = await PtyProcess.spawn({
      command,
      env: terminalEnv({ env, home, session: terminal.session, binDir, termId: terminal.termId }),
      cwd: env.HOME ?? homedir(),
      cols: terminal.cols,
      rows: terminal.rows,
      onOutput: (data) => {
        terminal.ring.push(data);
        terminal.emit({ type: 'pty.output', termId: terminal.termId, data });
        if (this.context.output.full) started.hold(true);
      },
      onExit: (exitCode, signal) => {
        log.info('terminal_exited', { termId: terminal.termId, exitCode, signal });
        terminal.process = null;
        removeTerminalSession(home, terminal.termId);
        terminal.exit = { type: 'pty.exit', termId: terminal.termId, exitCode, signal };
        terminal.emit(terminal.exit);
      },
    });
    // The program, not its arguments (which the user chose and may hold anything).
    log.info('terminal_started', {
      termId: terminal.termId,
      program: command[0],
      pid: started.pid,
      session: terminal.session ?? null,
    });
    return started;
  }

  private end(terminal: Terminal): void {
    if (this.terminals.get(terminal.termId) !== terminal) return;
    this.terminals.delete(terminal.termId);
    if (terminal.detachTimer !== null) clearTimeout(terminal.detachTimer);
    const running = terminal.process;
    if (running === null) return;
    this.track(running.terminate(this.options.killGraceMs ?? KILL_GRACE_MS));
  }

  private track(done: Promise<void>): void {
    this.ending.add(done);
    void done.finally(() => this.ending.delete(done));
  }
}

export function terminalHandler(options: TerminalOptions = {}): HandlerFactory<TerminalMessage> {
  return (context) => new TerminalHandler(context, options);
}
