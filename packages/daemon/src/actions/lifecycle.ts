/**
 * The lifecycle of sessions and tabs, in one place: a session made (with its tmpDir) and destroyed
 * (handles, record, tmpDir, its own farm browser), a tab closed in its browser and forgotten. The
 * session.* actions, tab.open, the tab actions and the user's requests all go through these.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PacingMode, RequestId, SessionId } from '@bproxy/protocol';
import { forward } from './dispatch';
import { ElementHandles } from '../sessions/element-handles';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import type { CommandContext, CommandRouteDeps } from './types';

export function createSession(
  deps: CommandRouteDeps,
  params: { label?: string; pacing?: PacingMode; browser?: string; sharedByUser?: boolean },
): SessionRecord {
  const session = deps.sessions.create({
    ...params,
    now: deps.clock.now(),
    tmpDirFor: (id: SessionId) => join(deps.tmpRoot, id),
  });
  try {
    mkdirSync(session.tmpDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    deps.logger.warn({ event: 'tmpdir_failed', session: session.id, err: String(err) });
  }
  return session;
}

/**
 * Forgets a session whose tabs are already gone: its handles, its record, its tmpDir, and the browser
 * that was its own (a farm's).
 */
export function destroySession(deps: CommandRouteDeps, session: SessionRecord): void {
  deps.handles.invalidateSession(session.id, 'session_closed');
  deps.sessions.delete(session);
  deps.launchers.releaseSession(session.id);
  rmSync(session.tmpDir, { recursive: true, force: true });
}

const MAX_REQUEST_ID = 128;

/**
 * The id of a request the daemon sends on behalf of `parent`: `parent.suffix`, deterministic (a retried
 * parent sends the same sub-requests, which the driver's dedupe table recognises) and within the
 * request-id limit — a parent too long for the suffix is shortened and made unique again by its hash.
 */
export function subRequestId(parent: string, suffix: string): RequestId {
  const plain = `${parent}.${suffix}`;
  if (plain.length <= MAX_REQUEST_ID) return plain as RequestId;
  const hash = createHash('sha256').update(parent).digest('base64url').slice(0, 16);
  const keep = MAX_REQUEST_ID - suffix.length - hash.length - 2;
  return `${parent.slice(0, keep)}-${hash}.${suffix}` as RequestId;
}

/**
 * Closes one tab in its browser (best effort) and forgets it; used by session.close. Resolves true when
 * the browser closed it, false when it was only forgotten (its browser away, or the close failed).
 */
export async function closeTab(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  tab: TabRecord,
): Promise<boolean> {
  const client = deps.clients.get(tab.clientKey);
  let closed = false;
  if (client?.transport) {
    const sub: CommandContext = {
      deadlineMono: ctx.deadlineMono,
      receivedMono: ctx.receivedMono,
      request: {
        ...ctx.request,
        id: subRequestId(ctx.request.id, `close.${tab.handle}`),
        action: 'tab.close',
        params: {},
      },
    };
    const outcome = await forward(deps, sub, null, () => ({ client, tab }), {});
    closed = outcome.ok;
    if (!outcome.ok)
      deps.logger.warn({ id: sub.request.id, event: 'tab_close_failed', error_code: outcome.error.code });
  }
  forgetTab(deps, session, tab, 'tab_closed');
  return closed;
}

export function forgetTab(
  deps: CommandRouteDeps,
  session: SessionRecord,
  tab: TabRecord,
  cause: string,
): void {
  deps.handles.invalidateTab(session.id, tab.handle, cause);
  deps.handles.forgetTabPage(ElementHandles.pageKey(tab.clientKey, tab.rawTabId));
  deps.sessions.removeTab(
    tab,
    cause === 'tab_closed'
      ? 'was closed'
      : cause === 'released'
        ? 'was released'
        : cause === 'browser_gone'
          ? 'was lost when its browser restarted'
          : 'is no longer open in the browser',
  );
}
