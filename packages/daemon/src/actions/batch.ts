/**
 * `batch`: the steps of one session, run in order, each as the request it would be alone. A step is
 * sent through the command route's own path (`ctx.runStep`): its id is derived from the batch's
 * (`<id>.1`, `<id>.2`, …), so it is recorded in the answer ledger and the page ledger like any request
 * and a repeated batch acts no twice; it is paced, queued behind its tab, checked against the session's
 * pause and its handles resolved at its turn, exactly as alone. Every step is checked before the first
 * runs; the first step that fails ends the batch, answered with that step's error and what the steps
 * before it answered.
 */
import {
  batchStepId,
  makeError,
  parseRequest,
  REQUEST_ID_MAX_LENGTH,
  type ActionParams,
} from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { failed } from './outcome';
import type { CommandContext, CommandRouteDeps } from './types';

export async function runBatch(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  params: ActionParams<'batch'>,
  session: SessionRecord,
): Promise<DriverOutcome> {
  const { request } = ctx;
  const runStep = ctx.runStep;
  if (runStep === undefined) return failed('INTERNAL_ERROR', 'batch: no route to run its steps');
  const lastId = batchStepId(request.id, params.steps.length - 1);
  if (lastId.length > REQUEST_ID_MAX_LENGTH)
    return failed(
      'BAD_REQUEST',
      `id: a batch's steps take ids ${request.id}.1 … ${lastId}, longer than ${REQUEST_ID_MAX_LENGTH} characters; use a shorter id`,
    );
  const bodies = params.steps.map((step, index) => ({
    id: batchStepId(request.id, index),
    action: step.action,
    params: step.params ?? {},
    session: session.id,
    deadline: request.deadline,
  }));
  const now = deps.clock.now();
  for (const [index, body] of bodies.entries()) {
    const parsed = parseRequest(body, now);
    if (!parsed.ok)
      return failed(
        parsed.error.code,
        `step ${index + 1} (${body.action}): ${parsed.error.message}; no step ran`,
      );
  }
  const completed: { action: string; data: unknown }[] = [];
  for (const [index, body] of bodies.entries()) {
    const response = await runStep(body);
    if (!response.ok) {
      const { code, message, reason, details } = response.error;
      deps.logger.info({ id: request.id, event: 'batch_stopped', step: index + 1, error_code: code });
      return {
        ok: false,
        error: makeError(code, `step ${index + 1} (${body.action}): ${message}`, {
          ...(reason === undefined ? {} : { reason }),
          details: { ...details, batch: { failedStep: index + 1, completed } },
        }),
      };
    }
    completed.push({ action: body.action, data: response.data });
  }
  return { ok: true, data: { steps: completed } };
}
