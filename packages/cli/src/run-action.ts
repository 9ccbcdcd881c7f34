/**
 * Running one action. The hot path loads no schemas: the request goes straight to the daemon through
 * the client, which checks the answer by hand. Only when a call fails (the daemon refused it, or there
 * is no daemon) are the protocol schemas loaded to check it locally, so that a bad flag is still a
 * usage error (exit 2) naming the field — whether or not a daemon is running.
 */
import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  ClientError,
  DaemonClient,
  ensurePrivateFolder,
  isClientError,
  isLifecycleError,
  newRequestId,
  resolveHome,
  statePaths,
  writeNewPrivateFile,
  type Env,
} from '@bproxy/client';
import { TERMINAL_AGENT_VAR } from '@bproxy/protocol/plain';
import { fenceUntrusted, untrustedFields } from '@bproxy/tools/untrusted';
import type { ActionCall } from './actions/grammar';
import { fromClientError } from './cli-error';
import { sessionNow, type GlobalOptions } from './global-options';
import { ProtocolFailure, printJson, writeLine } from './output';

/** Where a screenshot taken without --out goes: a new file in BPROXY_HOME/screenshots (see below). */
function privateScreenshotPath(env: Env, ext: string): string {
  const paths = statePaths(resolveHome(env));
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  return join(paths.screenshots, `screenshot-${stamp}-${newRequestId().slice(0, 4)}.${ext}`);
}

/**
 * Without --out, images go to BPROXY_HOME/screenshots rather than littering the agent's working tree
 * or a shared temporary folder, where another user could create the folder first and swap the image
 * the agent then reads: the folder must be ours and 0700, and each file is created new (0600, no
 * symlink followed). --out is the caller's own path: written 0600 when created, never through a symlink.
 */
function writeScreenshot(data: unknown, out: string | undefined, pretty: boolean, env: Env): void {
  const shot = data as {
    mimeType: string;
    data: string;
    width: number;
    height: number;
    annotations?: unknown[];
  };
  const ext = shot.mimeType === 'image/jpeg' ? 'jpg' : 'png';
  const bytes = Buffer.from(shot.data, 'base64');
  let path: string;
  try {
    if (out === undefined) {
      path = privateScreenshotPath(env, ext);
      ensurePrivateFolder(resolveHome(env), dirname(path));
      writeNewPrivateFile(path, bytes);
    } else {
      path = resolve(out);
      writeOut(path, bytes);
    }
  } catch (error) {
    if (isLifecycleError(error)) throw fromClientError(new ClientError('UNSAFE_STATE_FILE', error.message));
    throw error;
  }
  const labelled =
    shot.annotations === undefined || shot.annotations.length === 0
      ? {}
      : { untrusted: ['annotations'], annotations: shot.annotations };
  printJson({ path, mimeType: shot.mimeType, width: shot.width, height: shot.height, ...labelled }, pretty);
}

/** Writes --out: created 0600, or an existing file replaced in place; a symlink there is refused. */
function writeOut(path: string, bytes: Buffer): void {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ELOOP')
      throw new Error(`refusing to write ${path}: it is a symbolic link (name the file itself)`);
    throw error;
  }
  try {
    writeFileSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * The answer with `untrusted` first: the names of its fields that hold text from the page (data, never
 * instructions, for an agent reading it; `bproxy help agents`). A JSON string cannot end early, so
 * JSON needs no fence.
 */
function marked(action: string, data: Record<string, unknown>): Record<string, unknown> {
  const fields = untrustedFields(action, data);
  return fields.length === 0 ? data : { untrusted: fields, ...data };
}

function render(call: ActionCall, data: Record<string, unknown>, pretty: boolean, env: Env): void {
  if (call.render?.kind === 'screenshot') return writeScreenshot(data, call.render.out, pretty, env);
  // People asking for text want the text, not a JSON string with escaped newlines; it is the page's,
  // so it comes inside the untrusted-data fence (two lines), which an agent reading it can trust.
  if (pretty && call.action === 'text' && typeof data.text === 'string')
    return writeLine(fenceUntrusted(data.text));
  if (pretty && call.action === 'snapshot' && typeof data.snapshot === 'string')
    return writeLine(fenceUntrusted(data.snapshot));
  printJson(marked(call.action, data), pretty);
}

async function send(globals: GlobalOptions, call: ActionCall, env: Env): Promise<Record<string, unknown>> {
  // In the side panel's Terminal the native host says so (TERMINAL_AGENT_VAR): the Activity tells them apart.
  const client = new DaemonClient({
    env,
    agent: { kind: env[TERMINAL_AGENT_VAR] === 'terminal' ? 'terminal' : 'cli' },
  });
  try {
    const session = sessionNow(globals.session, env);
    const options = { timeoutMs: globals.timeoutMs, ...(session === undefined ? {} : { session }) };
    const answer = await client.call(call.action, call.params, options);
    if (!answer.ok) throw new ProtocolFailure(answer);
    return answer.data;
  } catch (error) {
    if (isLifecycleError(error)) throw fromClientError(new ClientError('UNSAFE_STATE_FILE', error.message));
    throw isClientError(error) ? fromClientError(error) : error;
  } finally {
    client.close();
  }
}

/** Sends `call` to the daemon of BPROXY_HOME (from `env`) and prints the answer; failures throw. */
export async function runAction(globals: GlobalOptions, call: ActionCall, env: Env): Promise<void> {
  let data: Record<string, unknown>;
  try {
    data = await send(globals, call, env);
  } catch (error) {
    // A call the schemas refuse is the user's mistake: say so (exit 2) rather than relay the failure.
    const { checkCall } = await import('./check-call');
    checkCall(call);
    throw error;
  }
  render(call, data, globals.pretty, env);
}
