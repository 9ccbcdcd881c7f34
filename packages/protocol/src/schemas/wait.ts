/**
 * `wait`: until one condition holds, or its deadline (`timeoutMs`) passes with WAIT_TIMEOUT saying what
 * was awaited and what the page showed. The conditions are listed in wait-conditions.ts.
 */
import { z } from 'zod';
import { ElementTargetSchema, TargetInputSchema } from '../targets';
import { WAIT_CONDITIONS, waitConditionsOf } from '../wait-conditions';
import { ConsoleErrorWaitResultShape, ConsoleErrorWaitShape } from './wait-console-error';
import { NetworkIdleWaitShape } from './wait-network-idle';
import { DownloadWaitResultShape, DownloadWaitShape } from './downloads';

const STATE = z.enum(['visible', 'hidden', 'attached', 'detached']);

/** The fields of every condition, as an agent sends them and as a driver receives them. */
const conditionFields = {
  text: z.string().min(1).max(1000).optional(),
  textGone: z.string().min(1).max(1000).optional(),
  selector: z.string().min(1).max(2000).optional(),
  navigation: z.boolean().optional(),
  url: z.string().min(1).max(2000).optional(),
  load: z.boolean().optional(),
  ...ConsoleErrorWaitShape,
  ...NetworkIdleWaitShape,
  ...DownloadWaitShape,
};

const oneCondition = `give exactly one of ${Object.keys(WAIT_CONDITIONS).join(', ')}`;

export const WaitParams = z
  .strictObject({
    ...conditionFields,
    target: TargetInputSchema.optional(),
    state: STATE.optional(),
    timeoutMs: z.number().int().min(0).max(300_000).optional(),
  })
  .refine((p) => waitConditionsOf(p).length === 1, oneCondition);

export const ForwardedWaitParams = z.strictObject({
  ...conditionFields,
  target: ElementTargetSchema.optional(),
  state: STATE.optional(),
  timeoutMs: z.number().int().min(0).max(300_000).optional(),
});

export const WaitResult = z.strictObject({
  url: z.string(),
  title: z.string(),
  waitedMs: z.number(),
  ...ConsoleErrorWaitResultShape,
  ...DownloadWaitResultShape,
});
