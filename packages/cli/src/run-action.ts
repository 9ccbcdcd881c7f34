/**
 * Running one action (loaded lazily: this is where zod comes in). Params are checked against the
 * action's schema before anything is sent, so a bad flag is a usage error (exit 2) with the field
 * named; the answer is checked against the envelope and the action's result schema on the way back.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  BproxyResponseSchema,
  actionDef,
  formatIssues,
  isActionName,
  parseParams,
  type ActionName,
} from '@bproxy/protocol';
import { CliError, EXIT, usageError } from './cli-error';
import { findDaemon } from './endpoint';
import type { GlobalOptions } from './global-options';
import { postCommand, type HttpReply } from './http';
import type { ActionCall } from './invoke';
import { ProtocolFailure, printJson } from './output';
import { newRequestId } from './request-id';

/** Headroom over the deadline so that the daemon's own TIMEOUT answer arrives before we give up. */
const GRACE_MS = 5_000;

function badResponse(message: string): CliError {
  return new CliError(
    'BAD_RESPONSE',
    message,
    EXIT.failure,
    'The CLI and the daemon may be from different releases: restart the daemon',
  );
}

function parseReply(reply: HttpReply, id: string, action: ActionName): unknown {
  let json: unknown;
  try {
    json = JSON.parse(reply.body);
  } catch {
    throw badResponse(`the daemon answered HTTP ${reply.status} with a body that is not JSON`);
  }
  const envelope = BproxyResponseSchema.safeParse(json);
  if (!envelope.success)
    throw badResponse(`the daemon's answer is outside the protocol: ${formatIssues(envelope.error, json)}`);
  const response = envelope.data;
  if (response.id !== null && response.id !== id)
    throw badResponse(`the daemon answered request ${response.id}, not ${id}`);
  if (!response.ok) throw new ProtocolFailure(response);
  const result = actionDef(action).result.safeParse(response.data);
  if (!result.success)
    throw badResponse(
      `the ${action} result is outside the protocol: ${formatIssues(result.error, response.data)}`,
    );
  return result.data;
}

function writeScreenshot(data: unknown, out: string | undefined, pretty: boolean): void {
  const shot = data as { mimeType: string; data: string; width: number; height: number };
  const ext = shot.mimeType === 'image/jpeg' ? 'jpg' : 'png';
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const path = resolve(out ?? `bproxy-screenshot-${stamp}-${newRequestId().slice(0, 4)}.${ext}`);
  writeFileSync(path, Buffer.from(shot.data, 'base64'), { mode: 0o600 });
  printJson({ path, mimeType: shot.mimeType, width: shot.width, height: shot.height }, pretty);
}

function render(call: ActionCall, data: unknown, pretty: boolean): void {
  if (call.render?.kind === 'screenshot') return writeScreenshot(data, call.render.out, pretty);
  const record = data as Record<string, unknown>;
  // People asking for text want the text, not a JSON string with escaped newlines.
  if (pretty && call.action === 'text' && typeof record.text === 'string')
    return void process.stdout.write(`${record.text}\n`);
  if (pretty && call.action === 'snapshot' && typeof record.snapshot === 'string')
    return void process.stdout.write(`${record.snapshot}\n`);
  printJson(data, pretty);
}

export async function runAction(globals: GlobalOptions, call: ActionCall): Promise<void> {
  const action = call.action;
  if (!isActionName(action)) {
    throw usageError(
      `unknown action "${action}"`,
      'Actions are protocol names like session.create, click or debug.status (see `bproxy --help`)',
    );
  }
  const checked = parseParams(action, call.params);
  if (!checked.ok)
    throw usageError(checked.error.message, `Run \`bproxy ${action.replace('.', ' ')} --help\``);
  const endpoint = findDaemon(process.env);
  const id = newRequestId();
  const request = {
    id,
    action,
    ...(globals.session === undefined ? {} : { session: globals.session }),
    params: call.params,
    deadline: Date.now() + globals.timeoutMs,
  };
  const reply = await postCommand(endpoint, JSON.stringify(request), globals.timeoutMs + GRACE_MS);
  render(call, parseReply(reply, id, action), globals.pretty);
}
