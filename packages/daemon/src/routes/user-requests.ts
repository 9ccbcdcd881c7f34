/**
 * What the user asks for through the browser's own UI, carried by the extension's authenticated
 * connection (never by an agent's POST): putting one of their open tabs into a session. The tab joins
 * a new session as t1, bound, and is marked as the user's: closing the session releases it instead of
 * closing it. A tab that already belongs to a session answers that session.
 */
import { makeError, type UserRequest } from '@bproxy/protocol';
import type { ClientRecord } from '../clients';
import type { UserRequestHandler } from '../drivers';
import { createSession } from './session-actions';
import type { CommandRouteDeps } from './types';

export function userRequestHandler(deps: CommandRouteDeps): UserRequestHandler {
  return async (record: ClientRecord, request: UserRequest) => {
    switch (request.kind) {
      case 'share_tab':
        return shareTab(deps, record, request);
    }
  };
}

function shareTab(
  deps: CommandRouteDeps,
  record: ClientRecord,
  request: Extract<UserRequest, { kind: 'share_tab' }>,
): ReturnType<UserRequestHandler> {
  if (record.kind !== 'extension')
    return Promise.resolve({
      ok: false,
      error: makeError('BAD_REQUEST', 'only the extension can share a tab of the user'),
    });
  const known = deps.sessions.byRaw(record.key, request.tabId);
  if (known)
    return Promise.resolve({ ok: true, data: { session: known.session, tab: known.handle, created: false } });
  const session = createSession(deps, { label: 'shared by the user', browser: record.name });
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
  return Promise.resolve({ ok: true, data: { session: session.id, tab: tab.handle, created: true } });
}
