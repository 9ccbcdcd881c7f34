/**
 * What the user asks for through the browser's own UI (the popup, the side panel), carried by the
 * extension's authenticated connection — never by an agent's POST. A browser may act on the sessions
 * that hold its own tabs only: share one of its open tabs into a new session (t1, bound, marked as
 * the user's so closing the session releases it), resume a paused session, take one over (pause it
 * for the user), pace one, close one, and read the activity feed about its tabs.
 */
import {
  DEFAULT_TIMEOUT_MS,
  makeError,
  type BproxyError,
  type RequestId,
  type SessionId,
  type UserRequest,
  type UserResult,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { UserRequestHandler } from '../browsers/drivers';
import type { SessionRecord } from '../sessions/sessions';
import { recordSessionEvent } from './activity-trail';
import { createSession } from './lifecycle';
import { sessionClose } from './session-actions';
import type { CommandContext, CommandRouteDeps } from './types';
import { isPolicyRequest, policyRequest } from '../policy/user-policy';
import { approvalRequest, isApprovalRequest } from '../approvals/user-approvals';

type Answer = { ok: true; result: UserResult } | { ok: false; error: BproxyError };

/** The reason agents are told while the user holds a session. */
import { TAKE_OVER_REASON } from '@bproxy/protocol';

export { TAKE_OVER_REASON };

export function userRequestHandler(deps: CommandRouteDeps): UserRequestHandler {
  return async (record, request) => {
    if (record.kind !== 'extension') return refuse('BAD_REQUEST', 'only the extension speaks for the user');
    const answer = await handle(deps, record, request);
    deps.browserState.changed();
    return answer;
  };
}

function refuse(code: 'BAD_REQUEST' | 'SESSION_NOT_FOUND', message: string): Answer {
  return { ok: false, error: makeError(code, message) };
}

/** A session the requesting browser may act on: one that holds at least one of its tabs. */
function ownSession(deps: CommandRouteDeps, record: ClientRecord, id: SessionId): SessionRecord | null {
  const session = deps.sessions.get(id);
  if (!session) return null;
  return [...session.tabs.values()].some((t) => t.clientKey === record.key) ? session : null;
}

async function handle(deps: CommandRouteDeps, record: ClientRecord, request: UserRequest): Promise<Answer> {
  if (request.kind === 'share_tab') return shareTab(deps, record, request);
  if (isPolicyRequest(request)) return policyRequest(deps, record, request);
  if (isApprovalRequest(request)) return approvalRequest(deps, record, request);
  if (request.kind === 'activity') {
    const { entries, gap } = deps.activity.since(request.after, record.key);
    return { ok: true, result: { kind: 'activity', entries, gap } };
  }
  const session = ownSession(deps, record, request.session);
  // The same answer for "no such session" and "not one of yours": a browser learns nothing of others'.
  if (!session)
    return refuse('SESSION_NOT_FOUND', `no session ${request.session} holds a tab of this browser`);
  switch (request.kind) {
    case 'resume':
      deps.sessions.resume(session);
      recordSessionEvent(deps, session, 'resume');
      deps.logger.info({
        event: 'session_resumed',
        session: session.id,
        by: 'user',
        ws_client: record.label,
      });
      return { ok: true, result: { kind: 'resume', info: deps.sessions.info(session) } };
    case 'take_over':
      deps.sessions.takeOver(session, TAKE_OVER_REASON);
      recordSessionEvent(deps, session, 'pause', TAKE_OVER_REASON);
      deps.logger.info({ event: 'session_paused', session: session.id, by: 'user', ws_client: record.label });
      return { ok: true, result: { kind: 'take_over', info: deps.sessions.info(session) } };
    case 'set_pacing':
      // The user's choice; on a tab they shared, agents cannot change it back (session-actions.ts).
      session.pacing = request.pacing;
      deps.logger.info({
        event: 'pacing_config',
        session: session.id,
        mode: request.pacing,
        by: 'user',
        ws_client: record.label,
      });
      return { ok: true, result: { kind: 'set_pacing', info: deps.sessions.info(session) } };
    case 'close_session':
      return closeSession(deps, session);
  }
}

/** The user closed a session from the browser: the same close as session.close, under an id of its own. */
async function closeSession(deps: CommandRouteDeps, session: SessionRecord): Promise<Answer> {
  const now = deps.clock.now();
  const mono = deps.clock.monotonic();
  const ctx: CommandContext = {
    request: {
      id: `user-${session.id}-${mono.toFixed(0)}` as RequestId,
      action: 'session.close',
      params: {},
      deadline: now + DEFAULT_TIMEOUT_MS,
    },
    receivedMono: mono,
    deadlineMono: mono + DEFAULT_TIMEOUT_MS,
  };
  const outcome = await sessionClose(deps, ctx, session);
  if (!outcome.ok) return outcome;
  return {
    ok: true,
    result: {
      kind: 'close_session',
      closed: outcome.data as Extract<UserResult, { kind: 'close_session' }>['closed'],
    },
  };
}

function shareTab(
  deps: CommandRouteDeps,
  record: ClientRecord,
  request: Extract<UserRequest, { kind: 'share_tab' }>,
): Answer {
  const known = deps.sessions.byRaw(record.key, request.tabId);
  if (known)
    return {
      ok: true,
      result: { kind: 'share_tab', shared: { session: known.session, tab: known.handle, created: false } },
    };
  const session = createSession(deps, {
    label: 'shared by the user',
    browser: record.name,
    sharedByUser: true,
  });
  const tab = deps.sessions.addTab(session, {
    clientKey: record.key,
    rawTabId: request.tabId,
    url: request.url,
    title: request.title,
    pinned: false,
    adopted: true,
  });
  deps.sessions.bind(session, tab.handle);
  deps.logger.info({ event: 'tab_shared', session: session.id, tab: tab.handle, ws_client: record.label });
  return {
    ok: true,
    result: { kind: 'share_tab', shared: { session: session.id, tab: tab.handle, created: true } },
  };
}
