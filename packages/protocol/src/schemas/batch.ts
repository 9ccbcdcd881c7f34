/**
 * `batch`: several actions of one session in one call, run in order and stopping at the first
 * failure. Each step is sent through the daemon exactly as if it came alone (its own request id, derived
 * from the batch's, its own pacing, handles and pause checks), so a batch is a convenience, never a way
 * around them.
 */
import { z } from 'zod';
import { ACTION_FACTS, type ActionName } from '../action-facts';

/** The most steps one batch may hold. */
export const BATCH_MAX_STEPS = 20;

/**
 * Actions a step may not be: a batch inside a batch, and what makes, lists or ends sessions or issues
 * pairing codes — a batch works in the one session it names.
 */
export const NOT_IN_BATCH: ReadonlySet<ActionName> = new Set<ActionName>([
  'batch',
  'session.create',
  'session.list',
  'session.close',
  'pairing.issue',
]);

/** The actions a batch step may be. */
export const BATCH_ACTIONS = (Object.keys(ACTION_FACTS) as ActionName[]).filter((a) => !NOT_IN_BATCH.has(a));

export const BatchStepSchema = z.strictObject({
  action: z.enum(BATCH_ACTIONS as [ActionName, ...ActionName[]]),
  params: z.record(z.string(), z.unknown()).optional(),
});

export const BatchParams = z.strictObject({
  steps: z.array(BatchStepSchema).min(1).max(BATCH_MAX_STEPS),
});

/** One step's answer: its action and its result (already checked against that action's result schema). */
export const BatchStepResult = z.strictObject({ action: z.string(), data: z.unknown() });

export const BatchResult = z.strictObject({ steps: z.array(BatchStepResult) });

/** The request id of step `index` (from 0) of the batch `id`: the same on a retry, never another request's. */
export function batchStepId(id: string, index: number): string {
  return `${id}.${index + 1}`;
}
