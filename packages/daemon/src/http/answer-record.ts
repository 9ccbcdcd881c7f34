/**
 * What the daemon keeps of every answer of POST /, whatever produced it (an action, a refusal at parse
 * time, a recorded answer given again to a repeated id): the `response` log event, the debug.last
 * trace and, at the debug log level, the payload.
 */
import { RequestIdSchema, SESSION_ID_PATTERN, type BproxyResponse, type Trace } from '@bproxy/protocol';
import { logResponsePayload } from '../logs/payload-log';
import type { CommandRouteDeps } from '../actions/types';

export interface AnswerFacts {
  id: string | null;
  action: string | null;
  session?: string;
  receivedAt: number;
  startMono: number;
  replayed?: true;
}

/** What can be read of a body refused at parse time: a valid id, the action named, a session id. */
export function refusedFacts(body: unknown, receivedAt: number, startMono: number): AnswerFacts {
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const { id, action, session } = record;
  const facts: AnswerFacts = {
    id: typeof id === 'string' && RequestIdSchema.safeParse(id).success ? id : null,
    action: typeof action === 'string' ? action.slice(0, 64) : null,
    receivedAt,
    startMono,
  };
  if (typeof session === 'string' && SESSION_ID_PATTERN.test(session)) facts.session = session;
  return facts;
}

export function recordAnswer(deps: CommandRouteDeps, facts: AnswerFacts, response: BproxyResponse): void {
  const elapsed = Math.round(deps.clock.monotonic() - facts.startMono);
  const errorCode = response.ok ? undefined : response.error.code;
  deps.logger.info({
    id: facts.id,
    event: 'response',
    ok: response.ok,
    elapsed_ms: elapsed,
    error_code: errorCode,
    replayed: facts.replayed,
  });
  const trace: Trace = {
    id: facts.id,
    action: facts.action,
    receivedAt: facts.receivedAt,
    elapsedMs: elapsed,
    ok: response.ok,
  };
  if (facts.session !== undefined) trace.session = facts.session;
  if (errorCode !== undefined) trace.errorCode = errorCode;
  if (facts.replayed) trace.replayed = true;
  deps.traces.push(trace);
  logResponsePayload(deps.logger, facts.action, response);
}
