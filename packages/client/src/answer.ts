/**
 * The request envelope a client sends, and reading the daemon's answer without zod: the envelope's
 * shape is checked by hand (ok, id, data or a catalogue error), so an action never pays for loading
 * the protocol schemas. The daemon validated the request and the driver's result already; this check
 * only guards against talking to something that is not a bproxy daemon of this release.
 */
import { ERROR_CATALOGUE, type ErrorCode, type RequestAgent } from '@bproxy/protocol/plain';
import { ClientError, isClientError } from './errors';
import type { HttpReply } from './http';

/** The daemon's own error, as it sent it (category, retry and details pass through untouched). */
export interface DaemonError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly hint?: string;
  readonly reason?: string;
  readonly [field: string]: unknown;
}

/** The daemon's answer to one request: its data, or its error envelope kept whole. */
export type Answer =
  | { readonly ok: true; readonly id: string; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly id: string | null; readonly error: DaemonError };

export interface RequestEnvelope {
  readonly id: string;
  readonly action: string;
  readonly session?: string;
  readonly params: Record<string, unknown>;
  /** Epoch milliseconds. */
  readonly deadline: number;
  /** Which kind of agent sends it (the side panel's Activity says it). */
  readonly agent?: RequestAgent;
}

export function requestEnvelope(
  id: string,
  action: string,
  params: Record<string, unknown>,
  session: string | undefined,
  deadline: number,
  agent?: RequestAgent,
): RequestEnvelope {
  return {
    id,
    action,
    ...(session === undefined ? {} : { session }),
    params,
    deadline,
    ...(agent === undefined ? {} : { agent }),
  };
}

function badResponse(message: string): ClientError {
  return new ClientError('BAD_RESPONSE', message);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

function isDaemonError(value: unknown): value is DaemonError {
  return (
    isRecord(value) &&
    typeof value.code === 'string' &&
    Object.hasOwn(ERROR_CATALOGUE, value.code) &&
    typeof value.message === 'string' &&
    optionalString(value.hint) &&
    optionalString(value.reason)
  );
}

/** The answer to request `id`; a ClientError BAD_RESPONSE when it is outside the protocol. */
export function readAnswer(reply: HttpReply, id: string): Answer {
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    throw badResponse(`the daemon answered HTTP ${reply.status} with a body that is not JSON`);
  }
  if (!isRecord(json) || typeof json.ok !== 'boolean' || !(json.id === null || typeof json.id === 'string'))
    throw badResponse(`the daemon's answer (HTTP ${reply.status}) is outside the protocol`);
  if (json.id !== null && json.id !== id)
    throw badResponse(`the daemon answered request ${json.id}, not ${id}`);
  if (json.ok) {
    if (!isRecord(json.data)) throw badResponse("the daemon's answer has no data object");
    return { ok: true, id, data: json.data };
  }
  if (!isDaemonError(json.error)) throw badResponse("the daemon's error is outside the protocol");
  return { ok: false, id: json.id, error: json.error };
}

/**
 * The answer of a call with a local failure of the client (no daemon, a daemon that answered outside
 * the protocol) as an error answer of its own code instead of an exception, for surfaces that turn
 * every failure into a reply (the MCP server, the in-browser agent). Other exceptions pass.
 */
export async function settleAnswer(call: Promise<Answer>): Promise<Answer> {
  try {
    return await call;
  } catch (error) {
    if (!isClientError(error)) throw error;
    return { ok: false, id: null, error: { code: error.code, message: error.message, hint: error.hint } };
  }
}
