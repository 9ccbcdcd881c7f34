/** Daemon-local session.* actions and tab.list: they need no browser and no bound tab. */
import { TAKE_OVER_HINT, type ActionParams, type TabHandle } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { closeTab, createSession, destroySession, forgetTab } from './lifecycle';
import { recordSessionEvent } from './activity-trail';
import { failed } from './outcome';
import type { CommandContext, CommandRouteDeps } from './types';

export function sessionCreate(deps: CommandRouteDeps, params: ActionParams<'session.create'>): DriverOutcome {
  const session = createSession(deps, params);
  return { ok: true, data: { ...deps.sessions.info(session), tmpDir: session.tmpDir } };
}

/** Every agent's session, and the caller's own (`-s ID`) even when it is private (sessions.ts). */
export function sessionList(deps: CommandRouteDeps, caller: string | undefined): DriverOutcome {
  return {
    ok: true,
    data: { sessions: deps.sessions.visibleTo(caller).map((s) => deps.sessions.info(s)) },
  };
}

export function sessionBind(
  deps: CommandRouteDeps,
  session: SessionRecord,
  params: ActionParams<'session.bind'>,
): DriverOutcome {
  const held = heldByUser(session);
  if (held) return held;
  if (params.pacing !== undefined && params.pacing !== session.pacing && session.sharedByUser === true)
    return failed(
      'PACING_SET_BY_USER',
      `session ${session.id} is a tab the user shared: it stays paced ${session.pacing}, as they chose`,
    );
  if (params.tab !== undefined) {
    const lookup = deps.sessions.lookupTab(session, params.tab as TabHandle);
    if (!lookup.ok) return failed(lookup.code, `tab ${params.tab} is not a tab of session ${session.id}`);
    deps.sessions.bind(session, lookup.tab.handle);
  }
  if (params.pacing !== undefined && params.pacing !== session.pacing) {
    session.pacing = params.pacing;
    deps.logger.info({ event: 'pacing_config', session: session.id, mode: params.pacing });
  }
  return { ok: true, data: deps.sessions.info(session) };
}

/**
 * A session the user took over stays theirs until they resume it in the browser: an agent that
 * resumed, unbound or closed it would take the tab back from under their hands.
 */
export function heldByUser(session: SessionRecord): DriverOutcome | null {
  if (session.heldByUser !== true) return null;
  return failed(
    'HUMAN_REQUIRED',
    `the user took over session ${session.id} in the browser: it stays theirs until they press Resume there`,
    { hint: TAKE_OVER_HINT },
  );
}

export function sessionUnbind(deps: CommandRouteDeps, session: SessionRecord): DriverOutcome {
  const held = heldByUser(session);
  if (held) return held;
  deps.sessions.unbind(session);
  return { ok: true, data: deps.sessions.info(session) };
}

export function sessionResume(deps: CommandRouteDeps, session: SessionRecord): DriverOutcome {
  const held = heldByUser(session);
  if (held) return held;
  const wasPaused = session.paused;
  deps.sessions.resume(session);
  if (wasPaused) recordSessionEvent(deps, session, 'resume');
  return { ok: true, data: deps.sessions.info(session) };
}

/**
 * Closes every tab the session owns, then forgets it. Best effort: a tab whose browser is away (or
 * refuses) does not block the close; it is reported as forgotten rather than closed.
 */
export async function sessionClose(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
): Promise<DriverOutcome> {
  recordSessionEvent(deps, session, 'close');
  // What waited for a person on its behalf goes with it.
  deps.approvals.dropSession(session.id);
  const closedTabs: TabHandle[] = [];
  const forgottenTabs: TabHandle[] = [];
  const releasedTabs: TabHandle[] = [];
  for (const tab of [...session.tabs.values()]) {
    if (tab.adopted) {
      // The user's own tab, shared from the browser: the session lets go of it, the tab stays open,
      // and its browser hears that bproxy no longer drives it.
      forgetTab(deps, session, tab, 'released');
      deps.clients.get(tab.clientKey)?.transport?.send({ type: 'tab_released', tabId: tab.rawTabId });
      releasedTabs.push(tab.handle);
      continue;
    }
    ((await closeTab(deps, ctx, session, tab)) ? closedTabs : forgottenTabs).push(tab.handle);
  }
  destroySession(deps, session);
  return { ok: true, data: { session: session.id, closedTabs, forgottenTabs, releasedTabs } };
}

export function tabList(deps: CommandRouteDeps, session: SessionRecord): DriverOutcome {
  const tabs = [...session.tabs.values()].map((t) =>
    deps.sessions.tabInfo(t, deps.clients.get(t.clientKey)?.name ?? 'gone'),
  );
  return { ok: true, data: { tabs } };
}
