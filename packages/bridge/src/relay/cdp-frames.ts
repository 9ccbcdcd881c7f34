/**
 * The few things the relay must read in a CDP message, and the answers it writes itself. CDP is
 * Chrome's wire, not ours: messages are relayed as text and only parsed as far as routing needs —
 * the id of every request and response, the method of the events that change the relay's state.
 * Chrome and the tools write the id first (`{"id":12,…`), so ids are swapped on the text itself and
 * the rest of a message (a multi-megabyte screenshot, say) is never parsed or re-serialized.
 */

export interface UpstreamRequest {
  readonly id: number;
  readonly method: string;
  readonly sessionId: string | undefined;
  readonly params: Record<string, unknown>;
  /** The text as the tool sent it. */
  readonly text: string;
}

/**
 * A message that is not a command the bridge can relay. `id` is its id when that is a safe integer
 * (answered under it); `looseId` is any other finite number it carried as id, echoed as parsed so a
 * tool can still tell which of its messages was refused.
 */
export type UpstreamParse =
  { ok: true; request: UpstreamRequest } | { ok: false; id: number | undefined; looseId: number | undefined };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseUpstream(text: string): UpstreamParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, id: undefined, looseId: undefined };
  }
  if (!isRecord(value)) return { ok: false, id: undefined, looseId: undefined };
  const id = typeof value.id === 'number' && Number.isSafeInteger(value.id) ? value.id : undefined;
  const looseId =
    id === undefined && typeof value.id === 'number' && Number.isFinite(value.id) ? value.id : undefined;
  const { method, sessionId, params } = value;
  if (id === undefined || typeof method !== 'string') return { ok: false, id, looseId };
  if (sessionId !== undefined && typeof sessionId !== 'string') return { ok: false, id, looseId };
  if (params !== undefined && !isRecord(params)) return { ok: false, id, looseId };
  return { ok: true, request: { id, method, sessionId, params: params ?? {}, text } };
}

const LEADING_ID = /^\{\s*"id"\s*:\s*(-?\d+)\s*,/;

/**
 * The message with its id replaced; on the text when the id leads, else re-serialized. Undefined when
 * it cannot be written again (nested too deep for JSON.stringify): never a throw in a message handler.
 */
export function withId(text: string, id: number): string | undefined {
  const match = LEADING_ID.exec(text);
  if (match !== null) return `{"id":${id},${text.slice(match[0].length)}`;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    return JSON.stringify({ ...value, id });
  } catch {
    return undefined;
  }
}

export type DownstreamMessage =
  | { kind: 'response'; id: number; text: string }
  | { kind: 'event'; method: string; text: string }
  | { kind: 'other' };

const LEADING_METHOD = /^\{\s*"method"\s*:\s*"([^"\\]+)"/;

export function classifyDownstream(text: string): DownstreamMessage {
  const id = LEADING_ID.exec(text);
  if (id !== null) return { kind: 'response', id: Number(id[1]), text };
  const method = LEADING_METHOD.exec(text);
  if (method !== null) return { kind: 'event', method: method[1] ?? '', text };
  // Not in Chrome's key order (a proxy in between may reorder): parse to be sure.
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'other' };
  }
  if (!isRecord(value)) return { kind: 'other' };
  if (typeof value.id === 'number') return { kind: 'response', id: value.id, text };
  if (typeof value.method === 'string') return { kind: 'event', method: value.method, text };
  return { kind: 'other' };
}

/** An answer the bridge gives instead of the browser, in CDP's own error shape. */
export function errorResponse(id: number, message: string, sessionId: string | undefined): string {
  // -32000 is the generic server error code Chrome uses for failed commands.
  const body: Record<string, unknown> = { id, error: { code: -32000, message: `bproxy bridge: ${message}` } };
  if (sessionId !== undefined) body.sessionId = sessionId;
  return JSON.stringify(body);
}

/**
 * The answer to a message without a usable id, in the shape Chrome gives it (-32600, Invalid
 * Request): under the id it carried when that was a number, else with no id at all.
 */
export function invalidRequestResponse(looseId: number | undefined, message: string): string {
  const error = { code: -32600, message: `bproxy bridge: ${message}` };
  return JSON.stringify(looseId === undefined ? { error } : { id: looseId, error });
}

export function successResponse(id: number, sessionId: string | undefined): string {
  const body: Record<string, unknown> = { id, result: {} };
  if (sessionId !== undefined) body.sessionId = sessionId;
  return JSON.stringify(body);
}

export function eventMessage(method: string, params: Record<string, unknown>, sessionId?: string): string {
  const body: Record<string, unknown> = { method, params };
  if (sessionId !== undefined) body.sessionId = sessionId;
  return JSON.stringify(body);
}

/** Parses an event the relay watches; undefined when it is not shaped as CDP says. */
export function parseEvent(
  text: string,
): { params: Record<string, unknown>; sessionId: string | undefined } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !isRecord(value.params)) return undefined;
  return {
    params: value.params,
    sessionId: typeof value.sessionId === 'string' ? value.sessionId : undefined,
  };
}

/** The parsed result of a response to a request the bridge made itself. */
export function parseResponse(text: string): { error: string | undefined; result: Record<string, unknown> } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'unparsable response', result: {} };
  }
  if (!isRecord(value)) return { error: 'unparsable response', result: {} };
  if (isRecord(value.error)) {
    const message = typeof value.error.message === 'string' ? value.error.message : 'unknown error';
    return { error: message, result: {} };
  }
  return { error: undefined, result: isRecord(value.result) ? value.result : {} };
}
