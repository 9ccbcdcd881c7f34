/**
 * Routes one parsed request by the protocol's action table: a local action to its entry in the local
 * table (local-actions.ts); an action addressed to a browser (routing 'client': tab.open, debug.log) to
 * its handler, with an optional session; every other action to the session's tab (page-actions.ts).
 * Which actions need a session follows from the same table; the lookups and their codes live here.
 */
import {
  SESSION_ID_PATTERN,
  SHARED_SESSION_GONE_HINT,
  type ACTIONS,
  actionDef,
  type ActionName,
  type ActionParams,
  type BproxyRequest,
  type SessionId,
} from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { debugLog } from './debug';
import { LOCAL_ACTIONS, isLocalAction, type LocalAction } from './local-actions';
import { failed } from './outcome';
import { runTabAction } from './page-actions';
import { navigateInNewTab, tabOpen } from './tab-open';
import type { CommandContext, CommandRouteDeps } from './types';
import { screenUrl } from './url-check';

/** The actions forwarded to a browser rather than to a tab: the session is optional. */
type ClientAction = {
  [A in ActionName]: (typeof ACTIONS)[A]['routing'] extends 'client' ? A : never;
}[ActionName];

type ClientHandler<A extends ClientAction> = (
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord | null,
  params: ActionParams<A>,
) => Promise<DriverOutcome>;

/** Every action with routing 'client' has its handler (a missing one is a compile error). */
const CLIENT_ACTIONS: { readonly [A in ClientAction]: ClientHandler<A> } = {
  'tab.open': tabOpen,
  'debug.log': (deps, ctx, session) => debugLog(deps, ctx, session),
};

const isClientAction = (action: ActionName): action is ClientAction => actionDef(action).routing === 'client';

/** The params of a request for `A`: parseRequest already checked them against A's schema. */
const paramsOf = <A extends ActionName>(request: BproxyRequest, _action: A) =>
  request.params as ActionParams<A>;

type SessionLookup = { ok: true; session: SessionRecord | null } | { ok: false; outcome: DriverOutcome };

const sessionRequired = () => failed('SESSION_REQUIRED', 'this action needs a session: pass -s ID');

function lookupSession(deps: CommandRouteDeps, id: string | undefined, required: boolean): SessionLookup {
  if (id === undefined)
    return required ? { ok: false, outcome: sessionRequired() } : { ok: true, session: null };
  if (!SESSION_ID_PATTERN.test(id)) {
    return {
      ok: false,
      outcome: failed(
        'INVALID_SESSION_ID',
        `session: expected 6 (or, for a tab the user shared, 26) characters of a-z and 2-7, got ${JSON.stringify(id.slice(0, 30))}`,
      ),
    };
  }
  const session = deps.sessions.get(id as SessionId);
  if (!session)
    return {
      ok: false,
      outcome: failed(
        'SESSION_NOT_FOUND',
        `no session ${id} (closed, or the daemon restarted)`,
        // A shared tab's id (26 characters): a session of one's own would not reach the user's tab.
        id.length === 26 ? { hint: SHARED_SESSION_GONE_HINT } : {},
      ),
    };
  return { ok: true, session };
}

async function runLocal<A extends LocalAction>(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  action: A,
): Promise<DriverOutcome> {
  const handler = LOCAL_ACTIONS[action];
  const params = paramsOf(ctx.request, action);
  if (handler.session === 'none') return handler.run(deps, ctx, params);
  const lookup = lookupSession(deps, ctx.request.session, true);
  if (!lookup.ok) return lookup.outcome;
  if (!lookup.session) return sessionRequired();
  return handler.run(deps, ctx, params, lookup.session);
}

function runClient<A extends ClientAction>(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  action: A,
  session: SessionRecord | null,
): Promise<DriverOutcome> {
  const handler: ClientHandler<A> = CLIENT_ACTIONS[action];
  return handler(deps, ctx, session, paramsOf(ctx.request, action));
}

export async function execute(deps: CommandRouteDeps, ctx: CommandContext): Promise<DriverOutcome> {
  const { request } = ctx;
  const action = request.action;
  if (isLocalAction(action)) return runLocal(deps, ctx, action);

  // A URL no browser may open is refused before anything is looked up, created or started.
  if (action === 'navigate' || action === 'tab.open') {
    const url = request.params.url;
    const refused = typeof url === 'string' ? screenUrl(url) : null;
    if (refused) return refused;
  }

  const lookup = lookupSession(deps, request.session, !isClientAction(action));
  if (!lookup.ok) return lookup.outcome;
  const session = lookup.session;
  if (isClientAction(action)) return runClient(deps, ctx, action, session);
  if (!session) return sessionRequired();
  if (action === 'navigate' && !deps.sessions.boundTab(session))
    return navigateInNewTab(deps, ctx, session, paramsOf(request, action));
  return runTabAction(deps, ctx, session, request.params);
}
