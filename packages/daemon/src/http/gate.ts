/**
 * The gate as a Fastify plugin: an onRequest hook on the whole app (not encapsulated), so every HTTP
 * request and every WebSocket upgrade passes auth.ts's four layers before any body is read. A refused
 * request gets a bare 401; while the daemon stops, everything but the client proof gets 503. A refused
 * upgrade is answered on the raw socket, which is then closed.
 */
import { CLIENT_PROOF_PATH, makeError } from '@bproxy/protocol';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../logs/logger';
import { passesGate, type GateConfig } from './auth';
import { errorResponse } from './responses';

export interface GateOptions {
  config: GateConfig;
  logger: Logger;
  shuttingDown(): boolean;
  /** An agent came by (a POST /, even with a body the route will refuse). */
  onAgentRequest(): void;
}

type Refusal = { status: 401 | 503; body: ReturnType<typeof errorResponse> };

const pathOf = (req: FastifyRequest) => req.url.split('?')[0];

function refusalFor(allowed: boolean, stopping: boolean, req: FastifyRequest): Refusal | null {
  if (!allowed) return { status: 401, body: errorResponse(null, makeError('UNAUTHORIZED', 'unauthorized')) };
  // While draining, a client may still have the daemon prove itself, so that it sends its request
  // and hears SHUTTING_DOWN from the daemon rather than from a listener it could not trust.
  if (stopping && pathOf(req) !== CLIENT_PROOF_PATH)
    return { status: 503, body: errorResponse(null, makeError('SHUTTING_DOWN', 'the daemon is stopping')) };
  return null;
}

/** The refusal of an upgrade: a plain HTTP answer on the raw socket, then closed (else it stays open). */
function refuseUpgrade(req: FastifyRequest, reply: FastifyReply, refusal: Refusal): void {
  reply.hijack();
  const body = JSON.stringify(refusal.body);
  const reason = refusal.status === 401 ? 'Unauthorized' : 'Service Unavailable';
  req.raw.socket.end(
    `HTTP/1.1 ${refusal.status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

const gatePlugin: FastifyPluginCallback<GateOptions> = (app, options, done) => {
  const { config, logger } = options;
  app.addHook('onRequest', async (req, reply) => {
    const allowed = passesGate(config, req.method, req.url, req.headers, req.raw.rawHeaders);
    const refusal = refusalFor(allowed, options.shuttingDown(), req);
    if (!refusal) {
      if (req.method === 'POST' && pathOf(req) === '/') options.onAgentRequest();
      return;
    }
    if (!allowed) logger.warn({ event: 'gate_rejected', method: req.method, path: req.url.split('?')[0] });
    if (req.headers.upgrade !== undefined) return refuseUpgrade(req, reply, refusal);
    reply.header('connection', 'close');
    return reply.code(refusal.status).send(refusal.body);
  });
  done();
};

/** Registered at the app's root: the hook guards every route, not only those inside the plugin. */
export const gate = Object.assign(gatePlugin, { [Symbol.for('skip-override')]: true });
