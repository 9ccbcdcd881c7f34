/**
 * Request and response payloads in the log, at the debug level only (the seed's "full payloads" for
 * protocol bugs). Redacted before they reach pino: values under secret-looking keys at any depth, and
 * what the agent typed (fill's value, type's text — possibly a password), and a result's secret (the code
 * pairing.issue hands out). Long strings (screenshots)
 * are cut, so one line stays readable. At info and above nothing here runs.
 */
import type { BproxyResponse } from '@bproxy/protocol';
import type { Logger } from './logger';

const REDACTED = '[redacted]';
const SECRET_KEY = /token|secret|password|passwd|authorization|cookie|credential|api[-_]?key/i;
/** Params that carry text the agent typed into a page. */
const TYPED_PARAMS: Readonly<Record<string, readonly string[]>> = { fill: ['value'], type: ['text'] };
/** Results that carry a secret under an ordinary name: a pairing code pairs a browser. */
const SECRET_RESULTS: Readonly<Record<string, readonly string[]>> = { 'pairing.issue': ['code'] };
const MAX_STRING = 4096;
const MAX_DEPTH = 12;
/** Entries kept per array or object: a body 100,000 entries wide costs one line of readable size. */
const MAX_ENTRIES = 100;

/**
 * A copy of `value` fit for one log line, whatever arrived: strings cut, at most MAX_DEPTH levels and
 * MAX_ENTRIES entries per level (the rest counted), secret-looking keys hidden. The recursion is
 * bounded by MAX_DEPTH, so a body nested 100,000 deep is cut at the twelfth level.
 */
function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…[${value.length} chars]` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ENTRIES).map((v: unknown) => redact(v, depth + 1));
    if (value.length > MAX_ENTRIES) kept.push(`…[${value.length - MAX_ENTRIES} more]`);
    return kept;
  }
  // No prototype: a key "__proto__" in the input stays a key of the copy.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  let kept = 0;
  let more = 0;
  for (const [key, v] of Object.entries(value)) {
    if (kept === MAX_ENTRIES) {
      more++;
      continue;
    }
    out[key.length > 200 ? `${key.slice(0, 200)}…` : key] = SECRET_KEY.test(key)
      ? REDACTED
      : redact(v, depth + 1);
    kept++;
  }
  if (more > 0) out['…'] = `[${more} more]`;
  return out;
}

function hideFields(
  table: Readonly<Record<string, readonly string[]>>,
  action: unknown,
  value: unknown,
): unknown {
  if (typeof action !== 'string' || !Object.hasOwn(table, action)) return value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of table[action] ?? []) if (key in copy) copy[key] = REDACTED;
  return copy;
}

const hideTyped = (action: unknown, params: unknown) => hideFields(TYPED_PARAMS, action, params);

/** The body of a request refused at parse time: whatever it holds, redacted the same way. */
function redactBody(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('params' in body))
    return redact(body);
  const record = body as Record<string, unknown>;
  return redact({ ...record, params: hideTyped(record.action, record.params) });
}

/** A request as it arrived: parsed (action, session, params) or, refused at parse time, the raw body. */
export function logRequestPayload(
  logger: Logger,
  id: string | null,
  request: { action: string; session?: string; params: unknown } | { body: unknown },
): void {
  if (!logger.isLevelEnabled('debug')) return;
  if ('body' in request) {
    logger.debug({ id, event: 'request_payload', body: redactBody(request.body) });
    return;
  }
  logger.debug({
    id,
    event: 'request_payload',
    action: request.action,
    session: request.session,
    params: redact(hideTyped(request.action, request.params)),
  });
}

export function logResponsePayload(logger: Logger, action: string | null, response: BproxyResponse): void {
  if (!logger.isLevelEnabled('debug')) return;
  logger.debug(
    response.ok
      ? {
          id: response.id,
          event: 'response_payload',
          ok: true,
          data: redact(hideFields(SECRET_RESULTS, action, response.data)),
        }
      : { id: response.id, event: 'response_payload', ok: false, error: redact(response.error) },
  );
}
