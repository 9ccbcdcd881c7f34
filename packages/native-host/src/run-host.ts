/**
 * The host's life, from Chrome's launch to the port's close. The caller's origin is checked before
 * stdin is touched; then frames are read from stdin and answered on stdout until the browser closes
 * the port (stdin ends: exit 0), a signal asks us to stop (exit 0), the browser sends what cannot be
 * read (garbage: exit 1) or speaks another protocol version (exit 1). A frame over the 64 MiB cap is
 * refused with an error and skipped; a frame torn by the end of stdin is logged. Either way the
 * handlers are closed (bounded) and what was sent is flushed before runHost resolves with the exit code.
 */
import type { Readable, Writable } from 'node:stream';
import type { Env } from '@bproxy/client';
import { resolveHome } from '@bproxy/client/lifecycle';
import { BPROXY_VERSION, NATIVE_MAX_FROM_BROWSER } from '@bproxy/protocol';
import { createDaemonAccess, type DaemonAccess } from './daemon/daemon-access';
import { watchDaemon, type DaemonWatch } from './daemon/daemon-watch';
import { FrameDecoder } from './framing';
import {
  NO_AGENT,
  NO_TERMINAL,
  type AgentMessage,
  type HandlerFactory,
  type TerminalMessage,
} from './handlers';
import { HostLogFile, hostDir, type HostLog } from './host-log';
import { checkCaller } from './origin';
import { Outbox } from './outbox';
import { PortSession } from './port-session';

export interface RunHostOptions {
  /** The host's arguments (process.argv without node and the script): the caller's origin first. */
  readonly argv: readonly string[];
  readonly stdin: Readable;
  /** Where frames go: nothing else may write there (see takeStdout). */
  readonly stdout: Writable;
  readonly env: Env;
  /** Default: host.log in BPROXY_HOME/host. */
  readonly log?: HostLog;
  /** The daemon bundle started when the browser asks for a daemon and none runs. */
  readonly daemonScript: string;
  /** Default: createDaemonAccess over @bproxy/client. */
  readonly daemon?: DaemonAccess;
  /** Chats and settings (default: none, every such message answered UNSUPPORTED_ACTION). */
  readonly agent?: HandlerFactory<AgentMessage>;
  /** Terminals (default: none, as above). */
  readonly terminal?: HandlerFactory<TerminalMessage>;
  /** The CLI launcher's absolute path, said in the welcome (null or absent: none). */
  readonly cliLauncher?: string | null;
  /** The BPROXY_HOME watch that pushes `daemon.location` with id `watch`; false: no watch. */
  readonly watch?: { readonly pollMs?: number } | false;
  /** Aborting it stops the host as if the port closed (SIGTERM, SIGINT). */
  readonly signal?: AbortSignal;
  /** How long closing the handlers and flushing may take (default 5 s). */
  readonly closeTimeoutMs?: number;
  /** The cap on one browser → host message (default NATIVE_MAX_FROM_BROWSER, 64 MiB). */
  readonly maxMessageBytes?: number;
}

/** At most `ms` of waiting for `task`; a task that fails counts as done. */
function bounded(task: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void task
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}

/** Runs the host until the port closes; resolves with the process exit code. Never throws. */
export async function runHost(options: RunHostOptions): Promise<number> {
  const { env, stdin } = options;
  const home = resolveHome(env);
  const log = options.log ?? new HostLogFile({ dir: hostDir(home) });
  const caller = checkCaller(options.argv, env);
  if (!caller.ok) {
    log.error('caller_refused', { reason: caller.reason });
    return 1;
  }
  log.info('start', { version: BPROXY_VERSION, node: process.version, caller: caller.origin });

  const outbox = new Outbox(options.stdout, log);
  const daemon = options.daemon ?? createDaemonAccess({ env, daemonScript: options.daemonScript });
  const maxBytes = options.maxMessageBytes ?? NATIVE_MAX_FROM_BROWSER;
  const decoder = new FrameDecoder(maxBytes);

  return new Promise<number>((resolve) => {
    let finishing = false;
    let watch: DaemonWatch | null = null;
    const session = new PortSession({
      outbox,
      log,
      context: { env, home, log, daemon, output: outbox },
      agent: options.agent ?? NO_AGENT,
      terminal: options.terminal ?? NO_TERMINAL,
      onFatal: () => void finish(1, 'protocol_mismatch'),
      cliLauncher: options.cliLauncher ?? null,
    });

    const finish = async (code: number, why: string, fields: Record<string, string> = {}) => {
      if (finishing) return;
      finishing = true;
      stdin.removeListener('data', onData);
      stdin.pause();
      watch?.close();
      log.info('stopping', { why, ...fields });
      const timeoutMs = options.closeTimeoutMs ?? 5_000;
      await bounded(session.close(), timeoutMs);
      await bounded(outbox.flush(), timeoutMs);
      outbox.close();
      log.info('exit', { code });
      resolve(code);
    };

    // No message may take the host down: one whose handling throws (a bug, or input it could not
    // survive) is answered INTERNAL_ERROR, and the port goes on.
    const receive = (value: unknown) => {
      try {
        session.receive(value);
      } catch (error) {
        log.error('message_failed', {
          name: error instanceof Error ? error.name : typeof error,
          reason: error instanceof Error ? error.message : '',
        });
        outbox.send({
          type: 'error',
          code: 'INTERNAL_ERROR',
          message: 'the native host could not handle this message; the port stays open',
        });
      }
    };

    const onData = (chunk: Buffer) => {
      for (const event of decoder.push(chunk)) {
        if (finishing) return;
        if (event.kind === 'message') receive(event.value);
        else if (event.kind === 'oversize') {
          log.warn('oversize_message', { bytes: event.length, max: maxBytes });
          outbox.send({
            type: 'error',
            code: 'PAYLOAD_TOO_LARGE',
            message: `a message of ${event.length} bytes is over the native host's limit of ${maxBytes} bytes; it was skipped`,
          });
        } else {
          log.error('garbage', { reason: event.reason });
          void finish(1, 'garbage');
        }
      }
    };

    // Armed before anything can finish the host, so that finish() always closes it.
    if (options.watch !== false) {
      watch = watchDaemon({
        home,
        read: () => daemon.current(),
        pollMs: options.watch?.pollMs,
        onChange: (state) => {
          log.info('daemon_changed', { running: state.running, port: state.port });
          if (session.ready) outbox.send({ type: 'daemon.location', id: 'watch', ...state, started: false });
        },
      });
    }

    stdin.on('data', onData);
    stdin.once('end', () => {
      const end = decoder.end();
      if (end.torn) log.warn('torn_frame', { detail: end.detail });
      void finish(0, 'port_closed');
    });
    stdin.on('error', (error) => void finish(0, 'stdin_error', { reason: error.message }));
    if (options.signal !== undefined) {
      if (options.signal.aborted) void finish(0, 'signal');
      options.signal.addEventListener(
        'abort',
        () => void finish(0, 'signal', { reason: String(options.signal?.reason) }),
      );
    }
  });
}
