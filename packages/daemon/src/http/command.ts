/**
 * POST / — the command route. Parses the envelope and the action's params, applies idempotency by
 * request id, runs the action, checks its result against the action's result schema, and answers with
 * one envelope. Every answer — refusals at parse time and replays to a repeated id included — gets its
 * log events and debug.last trace (answer-record.ts). Auth already ran at onRequest (gate.ts), before
 * the body was read.
 */
import {
  actionDef,
  formatIssues,
  makeError,
  parseRequest,
  type BproxyRequest,
  type BproxyResponse,
} from '@bproxy/protocol';
import type { FastifyInstance } from 'fastify';
import { recordAction } from '../actions/activity-trail';
import { timeoutOutcome } from '../actions/dispatch';
import { execute } from '../actions/execute';
import { maskAnswer } from '../actions/secret-fill';
import type { CommandContext, CommandRouteDeps } from '../actions/types';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { logRequestPayload } from '../logs/payload-log';
import { withSessionNotes } from '../sessions/session-notes';
import { fingerprint, type AnswerLedger } from './answer-ledger';
import { recordAnswer, refusedFacts, type AnswerFacts } from './answer-record';
import { errorResponse, okResponse, statusOf } from './responses';

export const COMMAND_BODY_LIMIT = 1024 * 1024;

export function registerCommandRoute(
  app: FastifyInstance,
  deps: CommandRouteDeps,
  ledger: AnswerLedger,
): void {
  app.post('/', { bodyLimit: COMMAND_BODY_LIMIT }, async (req, reply) => {
    const response = await answerCommand(deps, ledger, req.body);
    return reply.code(statusOf(response)).send(response);
  });
}

/** The one answer to a command body: a refusal, a replay of the recorded answer, or the action's. */
async function answerCommand(
  deps: CommandRouteDeps,
  ledger: AnswerLedger,
  body: unknown,
): Promise<BproxyResponse> {
  const receivedAt = deps.clock.now();
  const startMono = deps.clock.monotonic();
  const answer = (facts: AnswerFacts, response: BproxyResponse) => {
    recordAnswer(deps, facts, response);
    return response;
  };
  const parsed = parseRequest(body, receivedAt);
  if (!parsed.ok) {
    const facts = refusedFacts(body, receivedAt, startMono);
    logRequestPayload(deps.logger, facts.id, { body });
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
  logReceived(deps, request);
  const run = () => runCommand(deps, ledger, request, facts);
  // In flight until the action ends, whether or not the agent is still listening: the idle exit waits.
  const pending = deps.idleExit ? deps.idleExit.during(run) : run();
  ledger.record(request.id, print, pending);
  return pending;
}

function logReceived(deps: CommandRouteDeps, request: BproxyRequest): void {
  deps.logger.info({
    id: request.id,
    action: request.action,
    session: request.session,
    event: 'received',
    destructive: actionDef(request.action).destructive,
  });
  logRequestPayload(deps.logger, request.id, request);
}

/** Runs the action once, records it (activity, browsers' state, the answer), and builds the envelope. */
async function runCommand(
  deps: CommandRouteDeps,
  ledger: AnswerLedger,
  request: BproxyRequest,
  facts: AnswerFacts,
): Promise<BproxyResponse> {
  const ctx: CommandContext = {
    request,
    receivedMono: facts.startMono,
    deadlineMono: facts.startMono + (request.deadline - facts.receivedAt),
    trail: {},
    runStep: (body) => answerCommand(deps, ledger, body),
  };
  // Every answer (and the activity feed's copy) masks the values filled from secrets so far.
  const outcome = maskAnswer(
    deps.secrets,
    ctx.deadlineMono <= facts.startMono
      ? timeoutOutcome(deps, ctx, 'arrival', 'the deadline had already passed when the request arrived')
      : await executeChecked(deps, ctx),
  );
  recordAction(deps, ctx, outcome);
  deps.browserState.changed();
  const response = outcome.ok
    ? okResponse(request.id, outcome.data)
    : errorResponse(request.id, outcome.error);
  // Recorded once, when the action ends, even if the agent hung up; a repeat of the id is traced apart.
  recordAnswer(deps, facts, response);
  return response;
}

/** The action's outcome with the session's notes, its result checked; a handler that threw is an INTERNAL_ERROR. */
async function executeChecked(deps: CommandRouteDeps, ctx: CommandContext): Promise<DriverOutcome> {
  const { request } = ctx;
  try {
    return checkResult(deps, request, withSessionNotes(deps.sessions, request, await execute(deps, ctx)));
  } catch (err) {
    deps.logger.error({
      id: request.id,
      event: 'internal_error',
      err: err instanceof Error ? err.stack : String(err),
    });
    return {
      ok: false,
      error: makeError('INTERNAL_ERROR', 'the daemon failed on this request; it keeps serving'),
    };
  }
}

/**
 * The result an agent gets matches the action's result schema, as every other hop's does: a result
 * outside it is the daemon's fault, answered as INTERNAL_ERROR naming what is off (the log has the
 * action, never the values). The data sent is the handler's own, untouched.
 */
export function checkResult(
  deps: CommandRouteDeps,
  request: BproxyRequest,
  outcome: DriverOutcome,
): DriverOutcome {
  if (!outcome.ok) return outcome;
  const checked = actionDef(request.action).result.safeParse(outcome.data);
  if (checked.success) return outcome;
  deps.logger.error({ id: request.id, event: 'result_outside_protocol', action: request.action });
  const issues = formatIssues(checked.error, outcome.data);
  return {
    ok: false,
    error: makeError(
      'INTERNAL_ERROR',
      `the daemon's ${request.action} result is outside the protocol: ${issues}`,
    ),
  };
}
