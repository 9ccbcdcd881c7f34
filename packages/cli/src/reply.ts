/**
 * Reading the daemon's answer on the hot path, without zod: the envelope's shape is checked by hand
 * (ok, id, data or a catalogue error), so an action never pays for loading the protocol schemas. The
 * daemon validated the request and the driver's result already; this check only guards against
 * talking to something that is not a bproxy daemon of this release.
 */
import { ERROR_CATALOGUE } from '@bproxy/protocol/plain';
import { CliError, EXIT } from './cli-error';
import type { HttpReply } from './http';
import { ProtocolFailure, type ErrorEnvelope } from './output';

function badResponse(message: string): CliError {
  return new CliError(
    'BAD_RESPONSE',
    message,
    EXIT.failure,
    'The CLI and the daemon may be from different releases: restart the daemon',
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

function isCatalogueError(value: unknown): value is ErrorEnvelope['error'] {
  return (
    isRecord(value) &&
    typeof value.code === 'string' &&
    Object.hasOwn(ERROR_CATALOGUE, value.code) &&
    typeof value.message === 'string' &&
    optionalString(value.hint) &&
    optionalString(value.reason)
  );
}

/** The `data` of a successful answer to request `id`; a ProtocolFailure for a daemon error. */
export function readReply(reply: HttpReply, id: string): unknown {
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
    return json.data;
  }
  if (!isCatalogueError(json.error)) throw badResponse("the daemon's error is outside the protocol");
  throw new ProtocolFailure({ id: json.id, ok: false, error: json.error });
}
