/**
 * tab.open (choosing a browser, auto-creating a session), navigate in a session with no current tab
 * (which opens one), and the closes behind tab.close / session.close.
 */
import { createHash } from 'node:crypto';
import type { ActionParams, DriverTab, RequestId, SessionId, TabInfo } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import { forward } from './dispatch';
import { ElementHandles } from '../sessions/element-handles';
import { BrowserStartError } from '../browsers/launchers';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { failed } from './outcome';
import { pauseForHuman } from './pause';
import { createSession, destroySession } from './session-actions';
import type { CommandContext, CommandRouteDeps } from './types';
import { urlForClient } from './url-check';

/**
 * --browser NAME, else the most recent extension, else a connected CDP browser, else launch the default
 * one. A launcher that gives each session its own browser (a farm) answers for the session, which
 * `owner` names (creating it when tab.open came without one).
 */
async function chooseClient(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  name: string | undefined,
  owner: () => SessionId,
): Promise<ClientRecord | DriverOutcome> {
  if (name !== undefined) {
    if (deps.launchers.isPerSession(name)) return launch(deps, ctx, name, owner);
    const known = deps.clients.byName(name);
    if (known && (known.transport || deps.clients.inGrace(known, deps.graceMs))) return known;
    if (deps.launchers.has(name)) return launch(deps, ctx, name, owner);
    return failed(
      'BROWSER_NOT_FOUND',
      `no browser named "${name}" (connected: ${
        deps.clients
          .connected()
          .filter((c) => c.session === undefined)
          .map((c) => c.name)
          .join(', ') || 'none'
      })`,
    );
  }
  const picked = deps.clients.pickDefault();
  if (picked) return picked;
  if (deps.launchers.names().length > 0) return launch(deps, ctx, undefined, owner);
  return failed(
    'NO_EXTENSION',
    'no browser is connected: pair the extension or start the daemon with a browser',
  );
}

async function launch(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  name: string | undefined,
  owner: () => SessionId,
): Promise<ClientRecord | DriverOutcome> {
  try {
    return (
      (await deps.launchers.ensure(name, owner, ctx.deadlineMono)) ??
      failed('NO_EXTENSION', 'no browser is connected')
    );
  } catch (error) {
    if (error instanceof BrowserStartError) return failed(error.code, error.message);
    throw error;
  }
}

/** The session a tab.open without -s creates, its pacing clock started at the open's slot. */
function sessionOfOpen(deps: CommandRouteDeps, sentAt: number): SessionRecord {
  const session = createSession(deps, {});
  session.lastPacedAt = sentAt;
  return session;
}

export async function tabOpen(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord | null,
  params: ActionParams<'tab.open'>,
): Promise<DriverOutcome> {
  // Without -s the session is created by the answer, so that a failed open leaves none behind — unless
  // the browser is the session's own (a farm's): then it exists first, and goes again if the open fails.
  const early: { session?: SessionRecord } = {};
  const owner = () => (session ?? (early.session ??= createSession(deps, {}))).id;
  const chosen = await chooseClient(deps, ctx, params.browser ?? session?.browser, owner);
  const discardEarly = () => {
    if (early.session) destroySession(deps, early.session);
  };
  if ('ok' in chosen) {
    discardEarly();
    return chosen;
  }
  const release = deps.launchers.idle.hold(chosen.key);
  try {
    if (session?.paused) {
      return failed('HUMAN_REQUIRED', `session ${session.id} is paused: ${session.pauseReason ?? ''}`, {
        reason: session.pauseReason ?? '',
      });
    }
    const checked = urlForClient(deps, chosen, params.url ?? 'about:blank');
    if ('ok' in checked) {
      discardEarly();
      return checked;
    }
    const forwardedParams: Record<string, unknown> = { url: checked.url };
    if (params.active !== undefined) forwardedParams.active = params.active;
    // Paced like any navigation. Without -s the session is new: its first action goes at once, and the
    // slot it took (now) starts its pacing clock, so the agent's next action waits its turn.
    const sentAt = deps.clock.monotonic();
    if (early.session) early.session.lastPacedAt = sentAt;
    const outcome = await forward(deps, ctx, session, () => ({ client: chosen }), forwardedParams);
    if (!outcome.ok) {
      if (outcome.error.code !== 'HUMAN_REQUIRED') {
        discardEarly();
        return outcome;
      }
      const paused = session ?? early.session ?? sessionOfOpen(deps, sentAt);
      return pauseForHuman(deps, ctx, paused, outcome.error, !session);
    }
    const opened = outcome.data as DriverTab;
    const owning = session ?? early.session ?? sessionOfOpen(deps, sentAt);
    const tab = deps.sessions.addTab(owning, {
      clientKey: chosen.key,
      rawTabId: opened.tabId,
      url: opened.url,
      title: opened.title,
      pinned: opened.pinned ?? false,
    });
    deps.sessions.bind(owning, tab.handle);
    deps.handles.observePage(ElementHandles.pageKey(chosen.key, opened.tabId), opened.url);
    if (ctx.trail) ctx.trail.tab = tab;
    return { ok: true, data: deps.sessions.tabInfo(tab, chosen.name) };
  } finally {
    release();
  }
}

/**
 * navigate in a session with no current tab (none opened yet, or the bound one gone): an agent's first
 * call is usually navigate, so rather than answer TAB_NOT_FOUND it opens a tab there with the URL —
 * through tab.open's path, so the browser choice, the pause gate and pacing all apply — and answers as
 * navigate does, naming the tab it opened.
 */
export async function navigateInNewTab(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  params: ActionParams<'navigate'>,
): Promise<DriverOutcome> {
  const open: CommandContext = {
    ...ctx,
    request: { ...ctx.request, action: 'tab.open', params: { url: params.url } },
  };
  const opened = await tabOpen(deps, open, session, { url: params.url });
  if (!opened.ok) return opened;
  const tab = opened.data as TabInfo;
  return { ok: true, data: { url: tab.url, title: tab.title, openedTab: tab.tab } };
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
        : 'is no longer open in the browser',
  );
}
