/**
 * POST / — the command route. Parses the envelope and the action's params, applies idempotency by
 * request id, runs the action, and answers with one envelope. Emits the received/response/timeout
 * log events and the debug.last trace. Auth already ran at onRequest, before the body was read.
 */
import { actionDef, makeError, parseRequest, type BproxyResponse } from '@bproxy/protocol';
import type { FastifyInstance } from 'fastify';
import { fingerprint, type RequestLedger } from '../request-ledger';
import { execute } from './execute';
import { errorResponse, okResponse, statusOf } from './responses';
import type { CommandRouteDeps } from './types';

export const COMMAND_BODY_LIMIT = 1024 * 1024;

function idOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null;
  const id = (body as Record<string, unknown>).id;
  return typeof id === 'string' && /^[A-Za-z0-9_.:-]{1,128}$/.test(id) ? id : null;
}

export function registerCommandRoute(
  app: FastifyInstance,
  deps: CommandRouteDeps,
  ledger: RequestLedger,
): void {
  app.post('/', { bodyLimit: COMMAND_BODY_LIMIT }, async (req, reply) => {
    const receivedAt = deps.clock.now();
    const startMono = deps.clock.monotonic();
    const parsed = parseRequest(req.body, receivedAt);
    if (!parsed.ok) {
      const response = errorResponse(idOf(req.body), parsed.error);
      return reply.code(statusOf(response)).send(response);
    }
    const request = parsed.value;
    const print = fingerprint(request);
    const seen = ledger.lookup(request.id, print);
    if (seen.kind === 'conflict') {
      const response = errorResponse(
        request.id,
        makeError('REQUEST_ID_CONFLICT', `request id ${request.id} was already used for a different request`),
      );
      return reply.code(statusOf(response)).send(response);
    }
    if (seen.kind === 'same') {
      const response = await seen.answer;
      return reply.code(statusOf(response)).send(response);
    }

    deps.logger.info({
      id: request.id,
      action: request.action,
      session: request.session,
      event: 'received',
      destructive: actionDef(request.action).destructive,
    });
    const run = async (): Promise<BproxyResponse> => {
      const deadlineMono = startMono + (request.deadline - receivedAt);
      let outcome;
      if (deadlineMono <= startMono) {
        outcome = {
          ok: false as const,
          error: makeError('TIMEOUT', 'the deadline had already passed when the request arrived'),
        };
      } else {
        try {
          outcome = await execute(deps, { request, deadlineMono });
        } catch (err) {
          deps.logger.error({
            id: request.id,
            event: 'internal_error',
            err: err instanceof Error ? err.stack : String(err),
          });
          outcome = {
            ok: false as const,
            error: makeError('INTERNAL_ERROR', 'the daemon failed on this request; it keeps serving'),
          };
        }
      }
      const elapsed = Math.round(deps.clock.monotonic() - startMono);
      const errorCode = outcome.ok ? undefined : outcome.error.code;
      deps.logger.info({
        id: request.id,
        event: 'response',
        ok: outcome.ok,
        elapsed_ms: elapsed,
        error_code: errorCode,
      });
      const trace = {
        id: request.id,
        action: request.action,
        receivedAt,
        elapsedMs: elapsed,
        ok: outcome.ok,
      } as {
        id: string;
        action: string;
        session?: string;
        receivedAt: number;
        elapsedMs: number;
        ok: boolean;
        errorCode?: string;
      };
      if (request.session !== undefined) trace.session = request.session;
      if (errorCode !== undefined) trace.errorCode = errorCode;
      deps.traces.push(trace);
      return outcome.ok ? okResponse(request.id, outcome.data) : errorResponse(request.id, outcome.error);
    };
    const answer = run();
    ledger.record(request.id, print, answer);
    const response = await answer;
    return reply.code(statusOf(response)).send(response);
  });
}
