import type { z } from 'zod';
import { actionDef, isActionName, type ActionName } from './actions';
import { BproxyRequestSchema, type BproxyRequest } from './envelope';
import { MAX_DEADLINE_MS } from './version';
import { makeError, type BproxyError } from './errors';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: BproxyError };

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const json = JSON.stringify(value);
  if (json === undefined) return typeof value;
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** One readable line per issue: `params.tab: expected a tab handle like t1, got "7"`. */
export function formatIssues(error: z.ZodError, input: unknown, prefix = ''): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((p) => p !== '').join('.') || '(root)';
      if (issue.code === 'unrecognized_keys')
        return `${path}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
      const got = describe(valueAt(input, issue.path));
      const message = issue.message.replace(/^Invalid input: /, '');
      return `${path}: ${message}, got ${got}`;
    })
    .join('; ');
}

/** Parses the agent's envelope (POST /): the envelope first, then the action's params. */
export function parseRequest(body: unknown, now: number = Date.now()): Parsed<BproxyRequest> {
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const action = (body as Record<string, unknown>).action;
    if (typeof action === 'string' && !isActionName(action)) {
      return { ok: false, error: makeError('UNKNOWN_ACTION', `action: unknown action ${describe(action)}`) };
    }
  }
  const envelope = BproxyRequestSchema.safeParse(body);
  if (!envelope.success)
    return { ok: false, error: makeError('BAD_REQUEST', formatIssues(envelope.error, body)) };
  const request = envelope.data;
  if (request.deadline > now + MAX_DEADLINE_MS) {
    return {
      ok: false,
      error: makeError('BAD_REQUEST', `deadline: more than ${MAX_DEADLINE_MS / 60_000} minutes ahead`),
    };
  }
  const params = parseParams(request.action, request.params);
  if (!params.ok) return params;
  return { ok: true, value: { ...request, params: params.value } };
}

export function parseParams(action: ActionName, params: unknown): Parsed<Record<string, unknown>> {
  const parsed = actionDef(action).params.safeParse(params);
  if (!parsed.success)
    return { ok: false, error: makeError('BAD_REQUEST', formatIssues(parsed.error, params, 'params')) };
  return { ok: true, value: parsed.data as Record<string, unknown> };
}

/** Validates a value against a schema and reports failures as DRIVER_ERROR: used on answers from drivers. */
export function parseDriverValue<T>(schema: z.ZodType<T>, value: unknown, what: string): Parsed<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    return {
      ok: false,
      error: makeError('DRIVER_ERROR', `${what} outside the protocol: ${formatIssues(parsed.error, value)}`),
    };
  }
  return { ok: true, value: parsed.data };
}
