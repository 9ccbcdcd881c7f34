/**
 * Request and response payloads in the log, at the debug level only (the seed's "full payloads" for
 * protocol bugs). Redacted before they reach pino: values under secret-looking keys at any depth; what
 * the agent typed (fill's value, type's text, the text it answers a prompt dialog with — possibly a
 * password); what reads give back of it (a field's value in inspect and elements answers, `value="…"`
 * in a snapshot's lines); and a result's secret (the code pairing.issue hands out). Long strings
 * (screenshots) are cut and wide or deep values bounded, so one line stays readable. The answers the
 * agent gets are untouched: only the logged copy is redacted. At info and above nothing here runs.
 */
import type { BproxyResponse } from '@bproxy/protocol';
import type { Logger } from './logger';

const REDACTED = '[redacted]';
const SECRET_KEY =
  /token|secret|password|passwd|authorization|cookie|credential|api[-_]?key|prompttext|defaultprompt/i;
/** Params that carry text the agent typed into a page: a field's value, keys, a prompt's answer. */
const TYPED_PARAMS: Readonly<Record<string, readonly string[]>> = {
  fill: ['value'],
  type: ['text'],
  dialog: ['promptText'],
  'cookies.set': ['value'],
};
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

/** A snapshot line's `value="…"` (a JSON string): what a field holds, typed by the agent or not. */
const SNAPSHOT_VALUE = / value="(?:[^"\\]|\\.)*"/g;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value a field holds, hidden from a read's answer: it may be what the agent filled or typed. */
function hideFieldValue(element: unknown): unknown {
  if (!isRecord(element)) return element;
  const copy: Record<string, unknown> = { ...element };
  if ('value' in copy) copy.value = REDACTED;
  if (isRecord(copy.attributes) && 'value' in copy.attributes)
    copy.attributes = { ...copy.attributes, value: REDACTED };
  return copy;
}

/** Read answers with the values of fields hidden: inspect, elements and snapshot. */
function hideReadValues(action: string | null, data: unknown): unknown {
  if (!isRecord(data)) return data;
  if (action === 'inspect') return hideFieldValue(data);
  if (action === 'elements' && Array.isArray(data.elements))
    return { ...data, elements: data.elements.map(hideFieldValue) };
  if (action === 'snapshot' && typeof data.snapshot === 'string')
    return { ...data, snapshot: data.snapshot.replace(SNAPSHOT_VALUE, ` value=${REDACTED}`) };
  return data;
}

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
          data: redact(hideReadValues(action, hideFields(SECRET_RESULTS, action, response.data))),
        }
      : { id: response.id, event: 'response_payload', ok: false, error: redact(response.error) },
  );
}
