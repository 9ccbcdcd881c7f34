import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode, type ErrorSpec } from './errors-catalogue';

export * from './errors-catalogue';

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];
export const ErrorCodeSchema = z.enum(ERROR_CODES);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CATALOGUE, value);
}

export const ErrorCategorySchema = z.enum([
  'auth',
  'validation',
  'transport',
  'policy',
  'target',
  'page',
  'internal',
]);

/** The body of every failure: stable code, derived category and retry, a message for people. */
export const BproxyErrorSchema = z.strictObject({
  code: ErrorCodeSchema,
  category: ErrorCategorySchema,
  retry: z.boolean(),
  message: z.string().max(4000),
  hint: z.string().max(500).optional(),
  /** HUMAN_REQUIRED: why the session is paused. */
  reason: z.string().max(1000).optional(),
  /** Extra structured facts (the failing field, the dialog that is open, …). Never secrets. */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type BproxyError = z.infer<typeof BproxyErrorSchema>;

/** The HTTP status of a daemon answer carrying `code` (500 for a client-only code, which it never sends). */
export function httpStatusOf(code: ErrorCode): number {
  const spec: ErrorSpec = ERROR_CATALOGUE[code];
  return spec.status ?? 500;
}
