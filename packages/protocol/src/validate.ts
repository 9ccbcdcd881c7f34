import type { z } from 'zod';
import type { ActionName } from './action-facts';
import { actionDef, isActionName } from './actions';
import { BproxyRequestSchema, type BproxyRequest } from './envelope';
import { MAX_DEADLINE_MS } from './version';
import { makeError, type BproxyError } from './errors';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: BproxyError };

/** How much of an offending value an error message shows: a glimpse, never the value. */
const DESCRIBE_CHARS = 60;
const DESCRIBE_DEPTH = 3;
const DESCRIBE_WIDTH = 8;

/** Appends to `out` a compact JSON-like picture of `value`, stopping once `budget` characters are written. */
function picture(value: unknown, depth: number, out: string[], budget: { left: number }): void {
  const put = (text: string) => {
    out.push(text);
    budget.left -= text.length;
  };
  if (budget.left <= 0) return;
  switch (typeof value) {
    case 'string':
      // Cut before quoting: a 10 MB string costs what its first characters cost.
      put(JSON.stringify(value.length > budget.left ? value.slice(0, budget.left + 1) : value));
      return;
    case 'number':
      put(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      put(String(value));
      return;
    case 'bigint':
      put(`${value}n`);
      return;
    case 'undefined':
      put('undefined');
      return;
    case 'object':
      break;
    default:
      put(typeof value);
      return;
  }
  if (value === null) {
    put('null');
    return;
  }
  const isArray = Array.isArray(value);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (depth >= DESCRIBE_DEPTH) {
    put(`${open}…${close}`);
    return;
  }
  put(open);
  let shown = 0;
  let more = false;
  if (isArray) {
    for (const item of value as readonly unknown[]) {
      if (shown === DESCRIBE_WIDTH || budget.left <= 0) {
        more = true;
        break;
      }
      if (shown > 0) put(',');
      picture(item, depth + 1, out, budget);
      shown++;
    }
  } else {
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (shown === DESCRIBE_WIDTH || budget.left <= 0) {
        more = true;
        break;
      }
      if (shown > 0) put(',');
      picture(key, DESCRIBE_DEPTH, out, budget);
      put(':');
      picture((value as Record<string, unknown>)[key], depth + 1, out, budget);
      shown++;
    }
  }
  if (more) put(shown > 0 ? ',…' : '…');
  put(close);
}

/**
 * A short picture of an offending value for an error message. Total and bounded whatever arrives:
 * at most DESCRIBE_DEPTH levels, DESCRIBE_WIDTH entries per level and DESCRIBE_CHARS characters,
 * so a value nested 100,000 deep, a million entries wide or megabytes long costs a glimpse, and
 * nothing in it (a getter, a proxy) can make it throw.
 */
export function describeValue(value: unknown, max: number = DESCRIBE_CHARS): string {
  if (value === undefined) return 'nothing';
  const out: string[] = [];
  try {
    picture(value, 0, out, { left: max + 1 });
  } catch {
    return typeof value;
  }
  const text = out.join('');
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

const describe = (value: unknown): string => describeValue(value);

/** A piece of text from the input (a key, a path segment), cut so that a message stays readable. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
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

const MAX_ISSUES = 5;
const MAX_KEYS_NAMED = 5;
const MAX_PATH_CHARS = 120;
const MAX_MESSAGE_CHARS = 1000;

/**
 * One readable line per issue: `params.tab: expected a tab handle like t1, got "7"`. Bounded like
 * describeValue: at most five issues, five unknown keys named, and every piece taken from the input (a
 * key, a path segment) cut short — an error message never grows with the input, nor throws on it.
 */
export function formatIssues(error: z.ZodError, input: unknown, prefix = ''): string {
  return error.issues
    .slice(0, MAX_ISSUES)
    .map((issue) => {
      const path = cut(
        [prefix, ...issue.path.slice(0, 20).map((p) => cut(String(p), 40))]
          .filter((p) => p !== '')
          .join('.') || '(root)',
        MAX_PATH_CHARS,
      );
      if (issue.code === 'unrecognized_keys') {
        const named = issue.keys.slice(0, MAX_KEYS_NAMED).map((k) => describeValue(k, 40));
        const rest = issue.keys.length - named.length;
        return `${path}: unknown field(s) ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
      }
      const got = describe(valueAt(input, issue.path));
      const message = cut(issue.message.replace(/^Invalid input: /, ''), MAX_MESSAGE_CHARS);
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
