/**
 * buildServer(opts): the HTTP shell around the daemon's object graph (daemon.ts) — the gate plugin,
 * error handling, the routes (command, pair, proof, ws) — and the daemon's own life: listen, connect an
 * in-process driver, shut down (bounded). Pure: it reads no environment and touches no file; the
 * lifecycle (main.ts) hands it tokens, stores and a logger.
 */
import websocket from '@fastify/websocket';
import { WS_MAX_PAYLOAD, WS_SUBPROTOCOL, makeError, type PairingCodeKind } from '@bproxy/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import type { CommandRouteDeps } from '../actions/types';
import { createDaemon, type Daemon } from '../daemon';
import { PairingRateLimit } from '../pairing/pairing-rate-limit';
import type { DriverLink, ServerOptions } from '../server-options';
import { recordAnswer, refusedFacts } from './answer-record';
import { AnswerLedger } from './answer-ledger';
import { registerCommandRoute } from './command';
import { registerErrorHandling } from './errors';
import { gate } from './gate';
import { registerPairRoute } from './pair';
import { registerClientProofRoute, registerProofRoute } from './proof';
import { registerWsRoute } from './ws';

export interface IssuedPairingCode {
  code: string;
  issuedAt: number;
  expiresAt: number;
}

export interface DaemonServer {
  readonly app: FastifyInstance;
  /** The daemon's dependencies, for tests and the in-process drivers. */
  readonly deps: CommandRouteDeps;
  /** Binds 127.0.0.1 and resolves with the port actually bound. */
  listen(): Promise<number>;
  /** Issues a fresh one-time pairing code (replacing an unclaimed one); typed unless asked otherwise. */
  issuePairingCode(kind?: PairingCodeKind): IssuedPairingCode;
  /** Connects an in-process driver (the CDP driver) exactly like a WS client. */
  connectDriver(link: DriverLink, name?: string): Promise<void>;
  /**
   * Stops taking requests (503), drains those in flight (at most `drainMs`), closes driver connections
   * and the listener, then waits for the browsers it started to be gone (at most `browserStopMs`).
   * A second call waits for the first.
   */
  shutdown(drainMs?: number): Promise<void>;
}

/**
 * Longest shutdown waits for the browsers the daemon started to exit and their folders to go: the
 * launched browser's own close bounds (exit, kill, folder) and a second more, so that a browser that
 * needed killing is awaited too (cdp's CLOSE_BOUNDS: 3 + 2 + 2 s; a test keeps the two in step). The
 * cdp package is loaded only when a browser starts, so the figure is not imported from it.
 */
export const BROWSER_STOP_MS = 8_000;

function createApp(): FastifyInstance {
  const app = Fastify({
    logger: false,
    // Prototype pollution attempts in a body are refused outright, not stripped.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // After the drain, shutdown closes every socket instead of waiting on idle keep-alives.
    forceCloseConnections: true,
    // Let a request without Host reach the gate, which refuses it with the same bare 401 as any other.
    http: { requireHostHeader: false },
  });
  // Only application/json bodies are commands; Fastify's default text/plain parser would let a
  // CORS-simple request body through to validation.
  app.removeContentTypeParser('text/plain');
  return app;
}

async function registerShell(app: FastifyInstance, opts: ServerOptions, daemon: Daemon): Promise<void> {
  const { deps, state } = daemon;
  const { clock, logger } = deps;
  const port = () => state.port;
  await app.register(gate, {
    config: {
      port,
      extensionIds: opts.extensionIds,
      daemonToken: opts.daemonToken,
      extensionToken: () => opts.extensionTokens.get(),
    },
    logger,
    shuttingDown: () => state.shuttingDown,
    // The idle period starts over.
    onAgentRequest: () => deps.idleExit?.touch(),
  });
  registerErrorHandling(app, {
    logger,
    onCommandRefused: (response) =>
      recordAnswer(deps, refusedFacts(null, clock.now(), clock.monotonic()), response),
  });
  await app.register(websocket, {
    options: {
      maxPayload: WS_MAX_PAYLOAD,
      handleProtocols: (protocols: Set<string>) => (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
    },
  });
  registerRoutes(app, opts, daemon);
}

function registerRoutes(app: FastifyInstance, opts: ServerOptions, daemon: Daemon): void {
  const { deps, state, codes } = daemon;
  const { clock, logger } = deps;
  const port = () => state.port;
  const wsLinks = new Set<DriverLink>();
  registerCommandRoute(app, deps, new AnswerLedger(() => clock.monotonic(), opts.answerRetentionMs));
  registerPairRoute(app, {
    codes,
    limiter: new PairingRateLimit(() => clock.monotonic()),
    tokens: opts.extensionTokens,
    logger,
    clock,
    port,
    onTokenRotated: () => {
      for (const t of [...wsLinks]) t.close('token_revoked');
    },
    ...(opts.onPairingConsumed ? { onPairingConsumed: opts.onPairingConsumed } : {}),
  });
  registerProofRoute(app, { tokens: opts.extensionTokens, logger, port });
  registerClientProofRoute(app, { daemonToken: opts.daemonToken, logger, port });
  registerWsRoute(app, deps.drivers, wsLinks, opts.heartbeatMs ?? 20_000, logger);
}

/** The bounded stop: drain, fail what is left, close drivers and the listener, await the browsers. */
async function shutDown(app: FastifyInstance, daemon: Daemon, drainMs: number, browserStopMs: number) {
  const { deps, state } = daemon;
  state.shuttingDown = true;
  deps.idleExit?.stop();
  deps.launchers.idle.clear();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([deps.pending.whenIdle(), new Promise<void>((r) => (timer = setTimeout(r, drainMs)))]);
  if (timer) clearTimeout(timer);
  deps.pending.failAll(makeError('SHUTTING_DOWN', 'the daemon stopped before the browser answered'));
  deps.drivers.closeAll('shutting_down');
  await app.close();
  await deps.launchers.stopAll(browserStopMs);
}

export async function buildServer(opts: ServerOptions): Promise<DaemonServer> {
  const daemon = createDaemon(opts);
  const { deps, state, codes } = daemon;
  const app = createApp();
  await registerShell(app, opts, daemon);
  let stopping: Promise<void> | null = null;
  return {
    app,
    deps,
    async listen() {
      await app.listen({ host: '127.0.0.1', port: opts.port });
      const address = app.server.address();
      if (typeof address === 'object' && address) state.port = address.port;
      return state.port;
    },
    issuePairingCode: (kind) => codes.issue(kind),
    async connectDriver(link, name) {
      await deps.drivers.accept(link, {
        remote: 'in-process',
        ...(name !== undefined ? { launcher: name } : {}),
      });
    },
    shutdown(drainMs = 10_000) {
      stopping ??= shutDown(app, daemon, drainMs, opts.browserStopMs ?? BROWSER_STOP_MS);
      return stopping;
    },
  };
}
