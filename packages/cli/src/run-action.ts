/**
 * Running one action. The hot path loads no schemas: the request goes straight to the daemon, which
 * validates it, and the answer is read by reply.ts. Only when a call fails (the daemon refused it, or
 * there is no daemon) are the protocol schemas loaded to check it locally, so that a bad flag is still
 * a usage error (exit 2) naming the field — whether or not a daemon is running.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findDaemon } from './endpoint';
import type { GlobalOptions } from './global-options';
import { postCommand } from './http';
import type { ActionCall } from './invoke';
import { printJson, writeLine } from './output';
import { readReply } from './reply';
import { newRequestId } from './request-id';

/** Headroom over the deadline so that the daemon's own TIMEOUT answer arrives before we give up. */
const GRACE_MS = 5_000;

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

function render(call: ActionCall, data: unknown, pretty: boolean): void {
  if (call.render?.kind === 'screenshot') return writeScreenshot(data, call.render.out, pretty);
  const record = data as Record<string, unknown>;
  // People asking for text want the text, not a JSON string with escaped newlines.
  if (pretty && call.action === 'text' && typeof record.text === 'string') return writeLine(record.text);
  if (pretty && call.action === 'snapshot' && typeof record.snapshot === 'string')
    return writeLine(record.snapshot);
  printJson(data, pretty);
}

async function send(globals: GlobalOptions, call: ActionCall): Promise<unknown> {
  const endpoint = findDaemon(process.env);
  const id = newRequestId();
  const request = {
    id,
    action: call.action,
    ...(globals.session === undefined ? {} : { session: globals.session }),
    params: call.params,
    deadline: Date.now() + globals.timeoutMs,
  };
  const reply = await postCommand(endpoint, JSON.stringify(request), globals.timeoutMs + GRACE_MS);
  return readReply(reply, id);
}

export async function runAction(globals: GlobalOptions, call: ActionCall): Promise<void> {
  let data: unknown;
  try {
    data = await send(globals, call);
  } catch (error) {
    // A call the schemas refuse is the user's mistake: say so (exit 2) rather than relay the failure.
    const { checkCall } = await import('./check-call');
    checkCall(call);
    throw error;
  }
  render(call, data, globals.pretty);
}
