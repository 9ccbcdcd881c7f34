/**
 * POST / — the command route. Parses the envelope and the action's params, applies idempotency by
 * request id, runs the action, and answers with one envelope. Every answer — refusals at parse time
 * and replays to a repeated id included — gets its log events and debug.last trace (answer-record.ts).
 * Auth already ran at onRequest, before the body was read.
 */
import { actionDef, makeError, parseRequest, type BproxyResponse } from '@bproxy/protocol';
import type { FastifyInstance } from 'fastify';
import { timeoutOutcome } from '../actions/dispatch';
import { logRequestPayload } from '../logs/payload-log';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { fingerprint, type AnswerLedger } from './answer-ledger';
import { withSessionNotes } from '../sessions/session-notes';
import { recordAnswer, refusedFacts, type AnswerFacts } from './answer-record';
import { execute } from '../actions/execute';
import { errorResponse, okResponse, statusOf } from './responses';
import { recordAction } from '../actions/activity-trail';
import type { CommandContext, CommandRouteDeps } from '../actions/types';

export const COMMAND_BODY_LIMIT = 1024 * 1024;

export function registerCommandRoute(
  app: FastifyInstance,
  deps: CommandRouteDeps,
  ledger: AnswerLedger,
): void {
  app.post('/', { bodyLimit: COMMAND_BODY_LIMIT }, async (req, reply) => {
    const receivedAt = deps.clock.now();
    const startMono = deps.clock.monotonic();
    const answer = (facts: AnswerFacts, response: BproxyResponse) => {
      recordAnswer(deps, facts, response);
      return reply.code(statusOf(response)).send(response);
    };
    const parsed = parseRequest(req.body, receivedAt);
    if (!parsed.ok) {
      const facts = refusedFacts(req.body, receivedAt, startMono);
      logRequestPayload(deps.logger, facts.id, { body: req.body });
      return answer(facts, errorResponse(facts.id, parsed.error));
    }
    const request = parsed.value;
    const facts: AnswerFacts = { id: request.id, action: request.action, receivedAt, startMono };
    if (request.session !== undefined) facts.session = request.session;
    const print = fingerprint(request);
    const seen = ledger.lookup(request.id, print);
    if (seen.kind === 'conflict') {
      const error = makeError(
        'REQUEST_ID_CONFLICT',
        `request id ${request.id} was already used for a different request`,
      );
      return answer(facts, errorResponse(request.id, error));
    }
    if (seen.kind === 'same') return answer({ ...facts, replayed: true }, await seen.answer);

    deps.logger.info({
      id: request.id,
      action: request.action,
      session: request.session,
      event: 'received',
      destructive: actionDef(request.action).destructive,
    });
    logRequestPayload(deps.logger, request.id, request);
    const run = async (): Promise<BproxyResponse> => {
      const ctx: CommandContext = {
        request,
        receivedMono: startMono,
        deadlineMono: startMono + (request.deadline - receivedAt),
        trail: {},
      };
      let outcome: DriverOutcome;
      if (ctx.deadlineMono <= startMono) {
        outcome = timeoutOutcome(
          deps,
          ctx,
          'arrival',
          'the deadline had already passed when the request arrived',
        );
      } else {
        try {
          outcome = withSessionNotes(deps.sessions, request, await execute(deps, ctx));
        } catch (err) {
          deps.logger.error({
            id: request.id,
            event: 'internal_error',
            err: err instanceof Error ? err.stack : String(err),
          });
          outcome = {
            ok: false,
            error: makeError('INTERNAL_ERROR', 'the daemon failed on this request; it keeps serving'),
          };
        }
      }
      recordAction(deps, ctx, outcome);
      deps.browserState.changed();
      const response = outcome.ok
        ? okResponse(request.id, outcome.data)
        : errorResponse(request.id, outcome.error);
      // Recorded once, when the action ends, even if the agent hung up; a repeat of the id is traced apart.
      recordAnswer(deps, facts, response);
      return response;
    };
    // In flight until the action ends, whether or not the agent is still listening: the idle exit waits.
    const pending = deps.idleExit ? deps.idleExit.during(run) : run();
    ledger.record(request.id, print, pending);
    const response = await pending;
    return reply.code(statusOf(response)).send(response);
  });
}
