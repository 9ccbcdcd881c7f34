/**
 * Running one action. The hot path loads no schemas: the request goes straight to the daemon through
 * the client, which checks the answer by hand. Only when a call fails (the daemon refused it, or there
 * is no daemon) are the protocol schemas loaded to check it locally, so that a bad flag is still a
 * usage error (exit 2) naming the field — whether or not a daemon is running.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DaemonClient, isClientError, newRequestId, type Env } from '@bproxy/client';
import { fromClientError } from './cli-error';
import type { GlobalOptions } from './global-options';
import { ProtocolFailure, printJson, writeLine } from './output';

/** How a successful answer is shown: raw data, or a file written from it. */
export type Render =
  { readonly kind: 'data' } | { readonly kind: 'screenshot'; readonly out: string | undefined };

/** What one command line sends: an action of the protocol, its params, and how to show the answer. */
export interface ActionCall {
  readonly action: string;
  readonly params: Record<string, unknown>;
  readonly render?: Render;
}

function writeScreenshot(data: unknown, out: string | undefined, pretty: boolean): void {
  const shot = data as { mimeType: string; data: string; width: number; height: number };
  const ext = shot.mimeType === 'image/jpeg' ? 'jpg' : 'png';
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  // Without --out, images go to a private temp folder rather than littering the agent's working tree.
  const dir = join(tmpdir(), 'bproxy-screenshots');
  if (out === undefined) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = resolve(out ?? join(dir, `screenshot-${stamp}-${newRequestId().slice(0, 4)}.${ext}`));
  writeFileSync(path, Buffer.from(shot.data, 'base64'), { mode: 0o600 });
  printJson({ path, mimeType: shot.mimeType, width: shot.width, height: shot.height }, pretty);
}

function render(call: ActionCall, data: Record<string, unknown>, pretty: boolean): void {
  if (call.render?.kind === 'screenshot') return writeScreenshot(data, call.render.out, pretty);
  // People asking for text want the text, not a JSON string with escaped newlines.
  if (pretty && call.action === 'text' && typeof data.text === 'string') return writeLine(data.text);
  if (pretty && call.action === 'snapshot' && typeof data.snapshot === 'string')
    return writeLine(data.snapshot);
  printJson(data, pretty);
}

async function send(globals: GlobalOptions, call: ActionCall, env: Env): Promise<Record<string, unknown>> {
  const client = new DaemonClient({ env });
  const options = {
    timeoutMs: globals.timeoutMs,
    ...(globals.session === undefined ? {} : { session: globals.session }),
  };
  try {
    const answer = await client.call(call.action, call.params, options);
    if (!answer.ok) throw new ProtocolFailure(answer);
    return answer.data;
  } catch (error) {
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
  render(call, data, globals.pretty);
}
