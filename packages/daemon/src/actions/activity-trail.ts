/**
 * Turning what the daemon did into activity entries for the browsers that hold the tabs concerned: an
 * action (its target's handle and name, its outcome, how long pacing held it), and session events
 * (paused with the reason, resumed, closed). Only names and codes — never typed values or page text.
 */
import { actionDef, type ActivityEntry, type SessionId } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import type { CommandContext, CommandRouteDeps } from './types';

const firstLine = (text: string) => (text.split('\n')[0] ?? '').slice(0, 300);

function clientsOf(session: SessionRecord): string[] {
  return [...new Set([...session.tabs.values()].map((t) => t.clientKey))];
}

/** A session paused, resumed or closed: every browser holding one of its tabs hears of it. */
export function recordSessionEvent(
  deps: CommandRouteDeps,
  session: SessionRecord,
  kind: 'pause' | 'resume' | 'close',
  reason?: string,
): void {
  const bound = deps.sessions.boundTab(session);
  deps.activity.record(
    {
      kind,
      session: session.id,
      ...(session.label === undefined ? {} : { label: session.label }),
      tab: bound?.handle ?? null,
      tabId: bound?.rawTabId ?? null,
      ...(reason === undefined ? {} : { reason: firstLine(reason) }),
    },
    clientsOf(session),
  );
  deps.browserState.changed();
}

/**
 * An action refused because its session is paused never reached a tab; the person who paused it (or
 * the page that did) still hears that an agent is waiting: the entry goes to the session's bound tab.
 */
function refusedWhilePaused(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  outcome: DriverOutcome,
): TabRecord | undefined {
  if (outcome.ok || outcome.error.code !== 'HUMAN_REQUIRED') return undefined;
  const id = ctx.request.session;
  const session = id === undefined ? undefined : deps.sessions.get(id as SessionId);
  if (!session?.paused) return undefined;
  return deps.sessions.boundTab(session);
}

/** A forwarded action finished: the browser whose tab it ran in gets an entry. */
export function recordAction(deps: CommandRouteDeps, ctx: CommandContext, outcome: DriverOutcome): void {
  const { request } = ctx;
  if (actionDef(request.action).routing === 'local') return;
  const tab = ctx.trail?.tab ?? refusedWhilePaused(deps, ctx, outcome);
  if (!tab) return;
  const session = deps.sessions.get(tab.session);
  const target = request.params.target;
  let ref: string | undefined;
  if (typeof target === 'string') ref = target;
  else if (target !== null && typeof target === 'object' && 'selector' in target)
    ref = String((target as { selector: unknown }).selector).slice(0, 200);
  const name = typeof target === 'string' ? deps.handles.nameOf(tab.session, target) : undefined;
  const entry: Omit<ActivityEntry, 'seq' | 'at'> = {
    kind: 'action',
    session: tab.session,
    ...(session?.label === undefined ? {} : { label: session.label }),
    tab: tab.handle,
    tabId: tab.rawTabId,
    action: request.action,
    elapsedMs: Math.max(0, Math.round(deps.clock.monotonic() - ctx.receivedMono)),
    ...(request.agent === undefined ? {} : { agent: request.agent }),
  };
  if (ref !== undefined) entry.target = name === undefined ? { ref } : { ref, name };
  if (!outcome.ok) entry.error = { code: outcome.error.code, message: firstLine(outcome.error.message) };
  const waited = ctx.trail?.waitedMs;
  if (waited !== undefined && waited > 0) entry.waitedMs = Math.round(waited);
  deps.activity.record(entry, [tab.clientKey]);
}
