/**
 * tab.open (choosing a browser, auto-creating a session) and navigate in a session with no current tab
 * (which opens one).
 */
import type { ActionParams, DriverTab, SessionId, TabInfo } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import { forward } from './dispatch';
import { ElementHandles } from '../sessions/element-handles';
import { BrowserStartError } from '../browsers/launchers';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { failed } from './outcome';
import { pauseForHuman } from './pause';
import { createSession, destroySession } from './lifecycle';
import type { CommandContext, CommandRouteDeps } from './types';
import { urlForClient } from './url-check';
import { checkLanding, refuseDestination } from '../policy/enforce';
import { firstVisitGate } from '../approvals/gate';
import { refuseForeground } from '../policy/foreground';

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

/** One tab.open under way: the session named, or the one made for it early (a farm's browser). */
interface Opening {
  session: SessionRecord | null;
  early: { session?: SessionRecord };
  client: ClientRecord;
}

/** A session made for an open that then failed goes again. */
function discardEarly(deps: CommandRouteDeps, opening: Opening): void {
  if (opening.early.session) destroySession(deps, opening.early.session);
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
  if ('ok' in chosen) {
    if (early.session) destroySession(deps, early.session);
    return chosen;
  }
  const release = deps.launchers.idle.hold(chosen.key);
  try {
    return await openIn(deps, ctx, { session, early, client: chosen }, params);
  } finally {
    release();
  }
}

/** The open itself, in the chosen browser: the pause gate, the URL for that browser, pacing, the answer. */
async function openIn(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  opening: Opening,
  params: ActionParams<'tab.open'>,
): Promise<DriverOutcome> {
  const { session, early, client } = opening;
  if (session?.paused) {
    return failed('HUMAN_REQUIRED', `session ${session.id} is paused: ${session.pauseReason ?? ''}`, {
      reason: session.pauseReason ?? '',
    });
  }
  const checked = urlForClient(deps, client, params.url ?? 'about:blank');
  if ('ok' in checked) {
    discardEarly(deps, opening);
    return checked;
  }
  const refused =
    refuseDestination(deps, session, checked.url) ??
    refuseForeground(deps, session, params.active) ??
    firstVisitGate(deps, 'tab.open', session, null, client, checked.url);
  if (refused) {
    discardEarly(deps, opening);
    return refused;
  }
  const forwardedParams: Record<string, unknown> = { url: checked.url };
  if (params.active !== undefined) forwardedParams.active = params.active;
  // Paced like any navigation. Without -s the session is new: its first action goes at once, and the
  // slot it took (now) starts its pacing clock, so the agent's next action waits its turn.
  const sentAt = deps.clock.monotonic();
  if (early.session) early.session.lastPacedAt = sentAt;
  const outcome = await forward(deps, ctx, session, () => ({ client }), forwardedParams);
  if (!outcome.ok) {
    if (outcome.error.code !== 'HUMAN_REQUIRED') {
      discardEarly(deps, opening);
      return outcome;
    }
    const paused = session ?? early.session ?? sessionOfOpen(deps, sentAt);
    return pauseForHuman(deps, ctx, paused, outcome.error, !session);
  }
  return adoptOpened(deps, ctx, opening, outcome.data as DriverTab, sentAt);
}

/** The browser opened the tab: it joins the session (made now when tab.open came without one), bound. */
function adoptOpened(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  opening: Opening,
  opened: DriverTab,
  sentAt: number,
): DriverOutcome {
  const { client } = opening;
  const owning = opening.session ?? opening.early.session ?? sessionOfOpen(deps, sentAt);
  const tab = deps.sessions.addTab(owning, {
    clientKey: client.key,
    rawTabId: opened.tabId,
    url: opened.url,
    title: opened.title,
    pinned: opened.pinned ?? false,
  });
  deps.sessions.bind(owning, tab.handle);
  deps.handles.observePage(ElementHandles.pageKey(client.key, opened.tabId), opened.url);
  if (ctx.trail) ctx.trail.tab = tab;
  // A redirect may have taken the new tab to an origin the site policy refuses.
  return checkLanding(deps, owning, tab, { ok: true, data: deps.sessions.tabInfo(tab, client.name) });
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
