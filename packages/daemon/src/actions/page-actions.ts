/**
 * Every action forwarded to the session's tab (browser, page and tab.close/pin/unpin), with the seed's
 * error precedence — NO_EXTENSION, HUMAN_REQUIRED, TAB_NOT_FOUND — and the daemon-side effects of the
 * answer: minted handles, the tab's URL and title, the tabs its page opened by handle, a pause on
 * HUMAN_REQUIRED, a forgotten tab.
 */
import { TAKE_OVER_HINT } from '@bproxy/protocol';
import {
  ACTION_NAMES,
  actionDef,
  paramNames,
  type ActionName,
  type DriverOpenedTab,
  type TabHandle,
} from '@bproxy/protocol';
import { forward, type ForwardTarget } from './dispatch';
import { openedTabsOf } from '../sessions/opened-tabs';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord, TabRecord } from '../sessions/sessions';
import { pauseForHuman } from './pause';
import { mintFromResult } from './minting';
import { failed } from './outcome';
import { forgetTab } from './lifecycle';
import type { CommandContext, CommandRouteDeps } from './types';
import { noteNews } from '../observe/network-actions';
import { stepsOf, type PreparedStep, type StepContext } from './tab-steps';
import { checkLanding, refuseOnPage } from '../policy/enforce';
import { approvalGate } from '../approvals/gate';

/**
 * The tab actions that name their tab themselves (`tab` in their params: tab.close, tab.pin, tab.unpin),
 * read off the protocol's action table: the daemon resolves the handle, and the driver gets no params.
 */
const TAB_MANAGEMENT: ReadonlySet<ActionName> = new Set(
  ACTION_NAMES.filter((action) => actionDef(action).routing === 'tab' && paramNames(action).includes('tab')),
);

export async function runTabAction(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  params: Record<string, unknown>,
): Promise<DriverOutcome> {
  const action = ctx.request.action;
  const explicitTab = TAB_MANAGEMENT.has(action) ? (params.tab as TabHandle | undefined) : undefined;
  let forwardedParams = params;
  if (TAB_MANAGEMENT.has(action)) forwardedParams = {};

  // A browser the daemon can launch on the next tab open counts as available: without a tab the
  // answer is then TAB_NOT_FOUND (open one), not NO_EXTENSION.
  const noClient = () =>
    deps.clients.connected().length === 0 &&
    !deps.clients.all().some((c) => deps.clients.inGrace(c, deps.graceMs)) &&
    deps.launchers.names().length === 0;

  // Precedence, evaluated before any wait (pacing, queue): 1. no browser at all.
  if (noClient()) return failed('NO_EXTENSION', 'no browser is connected');
  // 2. paused for a human.
  if (session.paused) {
    return failed('HUMAN_REQUIRED', `session ${session.id} is paused: ${session.pauseReason ?? ''}`, {
      reason: session.pauseReason ?? '',
      ...(session.heldByUser === true ? { hint: TAKE_OVER_HINT } : {}),
    });
  }
  // 3. the tab.
  const findTab = (): TabRecord | DriverOutcome => {
    if (explicitTab !== undefined) {
      const lookup = deps.sessions.lookupTab(session, explicitTab);
      return lookup.ok
        ? lookup.tab
        : failed(lookup.code, `tab ${explicitTab} is not a tab of session ${session.id}`);
    }
    const bound = deps.sessions.boundTab(session);
    if (bound) return bound;
    const why = session.lostBound === undefined ? '' : `: ${session.lostBound}`;
    return failed('TAB_NOT_FOUND', `session ${session.id} has no bound tab${why}`);
  };
  const resolveTarget = (): ForwardTarget | DriverOutcome => {
    const tab = findTab();
    if ('ok' in tab) return tab;
    const client = deps.clients.get(tab.clientKey);
    if (!client) return failed('TAB_NOT_FOUND', `the browser of tab ${tab.handle} is gone`);
    return { client, tab };
  };
  const first = resolveTarget();
  if ('ok' in first) return first;
  const tab = first.tab;
  if (!tab) return failed('INTERNAL_ERROR', 'tab action without a tab');
  // The site policy: no action on a page of a refused origin but leaving it.
  const onRefusedPage = refuseOnPage(deps, action, tab);
  if (onRefusedPage) return onRefusedPage;
  // Approvals: a sensitive action is not run until a person allowed it (approvals/gate.ts).
  const held = await approvalGate(deps, ctx, session, tab, first.client, params, resolveTarget);
  // The activity feed says what waits (or was refused) in this tab, though nothing reached it.
  if (held && ctx.trail) ctx.trail.tab = tab;
  if (held) return held;
  // The action's own steps (tab-steps.ts): checks before forwarding, then the answer's files and shape.
  const sc: StepContext = { deps, ctx, session, tab, client: first.client, resolveTarget, params };
  const finishes: NonNullable<PreparedStep['finish']>[] = [];
  let replaced: PreparedStep['forward'];
  for (const step of stepsOf(action)) {
    const prepared = step.prepare(sc, forwardedParams);
    if ('ok' in prepared) return prepared;
    forwardedParams = prepared.params;
    if (prepared.forward !== undefined) replaced = prepared.forward;
    if (prepared.finish !== undefined) finishes.unshift(prepared.finish);
  }
  const outcome =
    replaced === undefined
      ? await forward(deps, ctx, session, resolveTarget, forwardedParams)
      : await replaced(forwardedParams);
  noteNews(session, tab, outcome);
  // Where the browser went meanwhile (a link, a popup, a redirect) is judged by the site policy.
  let answered = checkLanding(deps, session, tab, afterAnswer(deps, ctx, session, tab, outcome));
  for (const finish of finishes) answered = await finish(answered);
  return answered;
}

function afterAnswer(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord,
  tab: TabRecord,
  outcome: DriverOutcome,
): DriverOutcome {
  const action = ctx.request.action;
  if (!outcome.ok) {
    // Raw tab ids never leave the daemon, not even inside a driver's message.
    const rawId = new RegExp(`\\b(tab(?:Id)?[ :=#]*)${tab.rawTabId}\\b`, 'gi');
    const message = outcome.error.message.replace(rawId, `$1${tab.handle}`);
    outcome = { ok: false, error: { ...outcome.error, message } };
    if (outcome.error.code === 'HUMAN_REQUIRED')
      return pauseForHuman(deps, ctx, session, outcome.error, false, tab);
    if (outcome.error.code === 'TAB_NOT_FOUND' && session.tabs.get(tab.handle) === tab)
      forgetTab(deps, session, tab, 'tab_gone');
    return outcome;
  }
  let data = outcome.data as Record<string, unknown>;
  if (Array.isArray(data.openedTabs)) {
    // The driver named them by raw id; the agent gets their handles (registered by tab_opened).
    const { openedTabs: reported, ...rest } = data;
    const named = openedTabsOf(deps.sessions, session, tab.clientKey, reported as DriverOpenedTab[]);
    data = named.length > 0 ? { ...rest, openedTabs: named } : rest;
    outcome = { ok: true, data };
  }
  if (typeof data.url === 'string') tab.url = data.url;
  if (typeof data.title === 'string') tab.title = data.title;
  const browser = deps.clients.get(tab.clientKey)?.name ?? 'gone';
  switch (action) {
    case 'tab.close':
      forgetTab(deps, session, tab, 'tab_closed');
      return { ok: true, data: { tab: tab.handle, closed: true } };
    case 'tab.pin':
    case 'tab.unpin':
      tab.pinned = typeof data.pinned === 'boolean' ? data.pinned : action === 'tab.pin';
      return { ok: true, data: deps.sessions.tabInfo(tab, browser) };
    case 'links':
    case 'elements':
    case 'snapshot':
      return { ok: true, data: mintFromResult(deps, session, tab, action, data, ctx.request.params) };
    default:
      return outcome;
  }
}
