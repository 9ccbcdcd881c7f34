/**
 * Routes one parsed request to its handler: daemon-local actions, the tab-forwarded path, or the two
 * browser-addressed actions (tab.open, debug.log). Session lookups and their codes live here.
 */
import { SESSION_ID_PATTERN, actionDef, type ActionParams, type SessionId } from '@bproxy/protocol';
import { debugLast, debugStatus } from './debug';
import { forward } from './dispatch';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { runTabAction } from './page-actions';
import { failed } from './outcome';
import {
  heldByUser,
  sessionBind,
  sessionClose,
  sessionCreate,
  sessionList,
  sessionResume,
  sessionUnbind,
  tabList,
} from './session-actions';
import { navigateInNewTab, tabOpen } from './tab-open';
import { screenUrl } from './url-check';
import type { CommandContext, CommandRouteDeps } from './types';

type SessionLookup = { ok: true; session: SessionRecord | null } | { ok: false; outcome: DriverOutcome };

function lookupSession(deps: CommandRouteDeps, id: string | undefined, required: boolean): SessionLookup {
  if (id === undefined) {
    return required
      ? { ok: false, outcome: failed('SESSION_REQUIRED', 'this action needs a session: pass -s ID') }
      : { ok: true, session: null };
  }
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
      outcome: failed('SESSION_NOT_FOUND', `no session ${id} (closed, or the daemon restarted)`),
    };
  return { ok: true, session };
}

export async function execute(deps: CommandRouteDeps, ctx: CommandContext): Promise<DriverOutcome> {
  const { request } = ctx;
  const params = request.params;
  switch (request.action) {
    case 'session.create':
      return sessionCreate(deps, params as ActionParams<'session.create'>);
    case 'session.list':
      return sessionList(deps, request.session);
    case 'debug.last':
      return debugLast(deps, params as ActionParams<'debug.last'>, request.session);
    case 'debug.status':
      return debugStatus(deps, request.session);
    case 'pairing.issue': {
      // For the native host's zero-touch pairing and `bproxy pair`: the caller already holds the
      // daemon token, which is worth more than a code; the code is logged as issued, never itself. The
      // host asks for a direct code, which the claim throttle does not hold (it cannot be guessed).
      const kind = (params as ActionParams<'pairing.issue'>).kind ?? 'typed';
      const { code, expiresAt } = deps.issuePairingCode(kind);
      deps.logger.info({ event: 'pairing_code_issued', id: request.id, kind });
      return { ok: true, data: { code, expiresAt, port: deps.port() } };
    }
    default:
      break;
  }

  // A URL no browser may open is refused before anything is looked up, created or started.
  if (request.action === 'navigate' || request.action === 'tab.open') {
    const url = (params as { url?: unknown }).url;
    const refused = typeof url === 'string' ? screenUrl(url) : null;
    if (refused) return refused;
  }

  const optionalSession = request.action === 'tab.open' || request.action === 'debug.log';
  const lookup = lookupSession(deps, request.session, !optionalSession);
  if (!lookup.ok) return lookup.outcome;
  const session = lookup.session;

  switch (request.action) {
    case 'tab.open':
      return tabOpen(deps, ctx, session, params as ActionParams<'tab.open'>);
    case 'debug.log':
      return debugLog(deps, ctx, session);
    default:
      break;
  }
  if (!session) return failed('SESSION_REQUIRED', 'this action needs a session: pass -s ID');

  switch (request.action) {
    case 'session.bind':
      return sessionBind(deps, session, params as ActionParams<'session.bind'>);
    case 'session.unbind':
      return sessionUnbind(deps, session);
    case 'session.resume':
      return sessionResume(deps, session);
    case 'session.close':
      return heldByUser(session) ?? sessionClose(deps, ctx, session);
    case 'tab.list':
      return tabList(deps, session);
    default:
      break;
  }
  if (actionDef(request.action).routing !== 'tab')
    return failed('INTERNAL_ERROR', `no handler for ${request.action}`);
  if (request.action === 'navigate' && !deps.sessions.boundTab(session))
    return navigateInNewTab(deps, ctx, session, params as ActionParams<'navigate'>);
  return runTabAction(deps, ctx, session, params);
}

/** debug.log goes to the session's browser, or to the default one without a session. */
async function debugLog(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord | null,
): Promise<DriverOutcome> {
  if (session) return runTabAction(deps, ctx, session, ctx.request.params);
  const client = deps.clients.pickDefault();
  if (!client) return failed('NO_EXTENSION', 'no browser is connected');
  return forward(deps, ctx, null, () => ({ client }), ctx.request.params);
}
