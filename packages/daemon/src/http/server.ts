/**
 * buildServer(opts): the Fastify app and the object graph behind it. Pure: it reads no environment and
 * touches no file; the lifecycle (main.ts) hands it tokens, stores and a logger. Features are
 * registered as routes over one shared set of dependencies.
 */
import websocket from '@fastify/websocket';
import {
  CLIENT_PROOF_PATH,
  WS_MAX_PAYLOAD,
  WS_SUBPROTOCOL,
  makeError,
  type PairingCodeKind,
} from '@bproxy/protocol';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { passesGate } from './auth';
import { ActivityLog } from '../logs/activity';
import { BrowserState } from '../browsers/browser-state';
import { ClientRegistry } from '../browsers/clients';
import { systemClock } from '../clock';
import { DriverConnections } from '../browsers/drivers';
import { ElementHandles } from '../sessions/element-handles';
import { IdleExit } from '../idle-exit';
import { Launchers } from '../browsers/launchers';
import { PairingCodes } from '../pairing/pairing';
import { PairingRateLimit } from '../pairing/pairing-rate-limit';
import { MAX_PENDING, ForwardedRequests } from '../browsers/forwarded-requests';
import { AnswerLedger } from './answer-ledger';
import { recordAnswer, refusedFacts } from './answer-record';
import { registerCommandRoute } from './command';
import { registerPairRoute } from './pair';
import { registerClientProofRoute, registerProofRoute } from './proof';
import { errorResponse } from './responses';
import type { CommandRouteDeps } from '../actions/types';
import { userRequestHandler } from '../actions/user-requests';
import { registerWsRoute } from './ws';
import type { DriverLink, ServerOptions } from '../server-options';
import { SessionRegistry } from '../sessions/sessions';
import { TabQueues } from '../sessions/tab-queues';
import { TraceRing } from '../logs/traces';

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
  connectDriver(transport: DriverLink, name?: string): Promise<void>;
  /** Stops taking requests (503), drains those in flight, closes driver connections and the listener. */
  shutdown(drainMs?: number): Promise<void>;
}

function mapFastifyError(err: FastifyError): {
  status: number;
  code: 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'BAD_REQUEST' | 'INTERNAL_ERROR';
  message: string;
} {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the body exceeds the size limit' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'BAD_REQUEST', message: 'the body is empty' };
    default:
      if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
        return { status: 400, code: 'BAD_REQUEST', message: 'the body is not valid JSON' };
      }
      return {
        status: 500,
        code: 'INTERNAL_ERROR',
        message: 'the daemon failed on this request; it keeps serving',
      };
  }
}

export async function buildServer(opts: ServerOptions): Promise<DaemonServer> {
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger;
  const heartbeatMs = opts.heartbeatMs ?? 20_000;
  let boundPort = opts.port;
  let shuttingDown = false;

  const sessions = new SessionRegistry(opts.pacingOverride ?? 'human');
  const clients = new ClientRegistry(clock);
  const handles = new ElementHandles(() => clock.monotonic(), {
    mint: (e) => logger.info({ event: 'handle_mint', ...e }),
    resolve: (e) => logger.info({ event: 'handle_resolve', ...e }),
    invalidate: (e) => logger.info({ event: 'handle_invalidate', ...e }),
  });
  const pending = new ForwardedRequests(
    () => clock.monotonic(),
    {
      timeout: (id, elapsed, stage) => logger.info({ id, event: 'timeout', stage, elapsed_ms: elapsed }),
      replay: () => undefined, // logged by DriverConnections with the client label
      late: (id, client) => logger.debug({ id, event: 'late_answer', ws_client: client }),
    },
    MAX_PENDING,
    () => clock.now(),
  );
  const graceMs = opts.reconnectGraceMs ?? 15_000;
  const activity = new ActivityLog(() => clock.now());
  const browserState = new BrowserState(sessions, clients, activity);
  const drivers = new DriverConnections({
    clients,
    pending,
    sessions,
    handles,
    logger,
    graceMs,
    browserState,
  });
  const launchers = new Launchers(opts.launchers ?? [], {
    clients,
    drivers,
    sessions,
    pending,
    logger,
    clock,
    browserIdleMs: opts.browserIdleMs ?? null,
  });
  sessions.onTabsChanged = (clientKey) => launchers.tabsChanged(clientKey);
  const idleExit = opts.idleExit ? new IdleExit(clock, opts.idleExit.afterMs, opts.idleExit.onIdle) : null;
  const codes = new PairingCodes(clock);
  const deps: CommandRouteDeps = {
    sessions,
    clients,
    drivers,
    pending,
    queues: new TabQueues(),
    handles,
    launchers,
    idleExit,
    traces: new TraceRing(200),
    logger,
    clock,
    random: opts.random ?? Math.random,
    graceMs,
    tmpRoot: opts.tmpRoot,
    startedMono: clock.monotonic(),
    port: () => boundPort,
    paired: () => opts.extensionTokens.get() !== null,
    issuePairingCode: (kind) => codes.issue(kind),
    activity,
    browserState,
  };
  drivers.userRequests = userRequestHandler(deps);
  const wsSockets = new Set<DriverLink>();

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

  app.addHook('onRequest', async (req, reply) => {
    const allowed = passesGate(
      {
        port: () => boundPort,
        extensionId: opts.extensionId,
        daemonToken: opts.daemonToken,
        extensionToken: () => opts.extensionTokens.get(),
      },
      req.method,
      req.url,
      req.headers,
      req.raw.rawHeaders,
    );
    // While draining, a client may still have the daemon prove itself, so that it sends its request
    // and hears SHUTTING_DOWN from the daemon rather than from a listener it could not trust.
    const proofOnly = req.url.split('?')[0] === CLIENT_PROOF_PATH;
    const refusal = !allowed
      ? { status: 401, body: errorResponse(null, makeError('UNAUTHORIZED', 'unauthorized')) }
      : shuttingDown && !proofOnly
        ? { status: 503, body: errorResponse(null, makeError('SHUTTING_DOWN', 'the daemon is stopping')) }
        : null;
    if (!refusal) {
      // An agent came by (even with a body the route will refuse): the idle period starts over.
      if (req.method === 'POST' && req.url.split('?')[0] === '/') idleExit?.touch();
      return;
    }
    if (!allowed) logger.warn({ event: 'gate_rejected', method: req.method, path: req.url.split('?')[0] });
    if (req.headers.upgrade !== undefined) {
      // A refused upgrade gets a plain HTTP answer on the raw socket, which is then closed: the
      // upgrade path would otherwise leave the socket open.
      reply.hijack();
      const body = JSON.stringify(refusal.body);
      const reason = refusal.status === 401 ? 'Unauthorized' : 'Service Unavailable';
      req.raw.socket.end(
        `HTTP/1.1 ${refusal.status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    reply.header('connection', 'close');
    return reply.code(refusal.status).send(refusal.body);
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    const mapped = mapFastifyError(err);
    if (mapped.status >= 500) logger.error({ event: 'internal_error', url: req.url, err: err.stack });
    // /pair/claim has its own error handler (http/pair.ts): its failures feed the throttle.
    const response = errorResponse(null, makeError(mapped.code, mapped.message));
    // A command body Fastify could not read (not JSON, too large, another type) is traced like the
    // bodies the command route refuses, so debug.last shows every refusal past the gate.
    if (req.method === 'POST' && req.url.split('?')[0] === '/')
      recordAnswer(deps, refusedFacts(null, clock.now(), clock.monotonic()), response);
    return reply.code(mapped.status).send(response);
  });
  app.setNotFoundHandler((req, reply) =>
    reply
      .code(404)
      .send(
        errorResponse(null, makeError('ROUTE_NOT_FOUND', `no route ${req.method} ${req.url.split('?')[0]}`)),
      ),
  );

  await app.register(websocket, {
    options: {
      maxPayload: WS_MAX_PAYLOAD,
      handleProtocols: (protocols: Set<string>) => (protocols.has(WS_SUBPROTOCOL) ? WS_SUBPROTOCOL : false),
    },
  });
  registerCommandRoute(app, deps, new AnswerLedger(() => clock.monotonic(), opts.answerRetentionMs));
  registerPairRoute(app, {
    codes,
    limiter: new PairingRateLimit(() => clock.monotonic()),
    tokens: opts.extensionTokens,
    logger,
    clock,
    port: () => boundPort,
    onTokenRotated: () => {
      for (const t of [...wsSockets]) t.close('token_revoked');
    },
    ...(opts.onPairingConsumed ? { onPairingConsumed: opts.onPairingConsumed } : {}),
  });
  registerProofRoute(app, { tokens: opts.extensionTokens, logger, port: () => boundPort });
  registerClientProofRoute(app, { daemonToken: opts.daemonToken, logger, port: () => boundPort });
  registerWsRoute(app, drivers, wsSockets, heartbeatMs, logger);

  return {
    app,
    deps,
    async listen() {
      await app.listen({ host: '127.0.0.1', port: opts.port });
      const address = app.server.address();
      if (typeof address === 'object' && address) boundPort = address.port;
      return boundPort;
    },
    issuePairingCode(kind) {
      return codes.issue(kind);
    },
    async connectDriver(transport, name) {
      await drivers.accept(transport, {
        remote: 'in-process',
        ...(name !== undefined ? { launcher: name } : {}),
      });
    },
    async shutdown(drainMs = 10_000) {
      if (shuttingDown) return;
      shuttingDown = true;
      idleExit?.stop();
      launchers.idle.clear();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pending.whenIdle(), new Promise<void>((r) => (timer = setTimeout(r, drainMs)))]);
      if (timer) clearTimeout(timer);
      pending.failAll(makeError('SHUTTING_DOWN', 'the daemon stopped before the browser answered'));
      drivers.closeAll('shutting_down');
      await app.close();
    },
  };
}
