import { z } from 'zod';
import { ERROR_CATALOGUE, type BproxyError, type ErrorCode, type ErrorSpec } from './errors-catalogue';

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
/** How deep an error's details may nest: facts, not documents. */
export const MAX_DETAILS_DEPTH = 16;

/**
 * Whether `value` nests at most `max` levels of arrays and objects. Walks with a stack of its own, so
 * asking about a value nested 100,000 deep is safe — unlike JSON.stringify, which such details used to
 * reach when an answer was stored or sent.
 */
export function nestsWithin(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.value === null || typeof top.value !== 'object') continue;
    if (top.depth >= max) return false;
    const children: unknown[] = Array.isArray(top.value) ? top.value : Object.values(top.value);
    for (const child of children)
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: top.depth + 1 });
  }
  return true;
}

export const BproxyErrorSchema = z.strictObject({
  code: ErrorCodeSchema,
  category: ErrorCategorySchema,
  retry: z.boolean(),
  message: z.string().max(4000),
  hint: z.string().max(500).optional(),
  /** HUMAN_REQUIRED: why the session is paused. */
  reason: z.string().max(1000).optional(),
  /** Extra structured facts (the failing field, the dialog that is open, …). Never secrets. */
  details: z
    .record(z.string(), z.unknown())
    .refine((details) => nestsWithin(details, MAX_DETAILS_DEPTH), {
      message: `nested deeper than ${MAX_DETAILS_DEPTH} levels`,
    })
    .optional(),
});

/** True when A and B are the same type; Assert fails to compile otherwise. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** The schema and the plain BproxyError (errors-catalogue.ts) describe the same body. */
type _ErrorShapesAgree = Assert<Same<z.infer<typeof BproxyErrorSchema>, BproxyError>>;

/** The HTTP status of a daemon answer carrying `code` (500 for a client-only code, which it never sends). */
export function httpStatusOf(code: ErrorCode): number {
  const spec: ErrorSpec = ERROR_CATALOGUE[code];
  return spec.status ?? 500;
}
