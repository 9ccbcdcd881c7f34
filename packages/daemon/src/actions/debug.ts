/**
 * debug.last and debug.status: daemon-local views (debug.log goes to a browser's driver). Raw tab ids never appear here, and neither does the
 * id of a tab the user shared with another agent, nor a session the user holds: each caller sees the
 * agents' sessions and the one it names (`-s ID`), as in session.list.
 */
import {
  BPROXY_VERSION,
  PROTOCOL_VERSION,
  SHARED_SESSION_ID_LENGTH,
  type ActionParams,
  type SessionId,
  type Trace,
} from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { forward } from './dispatch';
import { failed } from './outcome';
import { runTabAction } from './page-actions';
import type { CommandContext } from './types';
import type { CommandRouteDeps } from './types';
import { isPrivate } from '../sessions/sessions';

export function debugLast(
  deps: CommandRouteDeps,
  params: ActionParams<'debug.last'>,
  caller: string | undefined,
): DriverOutcome {
  const limit = params.limit ?? 20;
  // A user-shared session's id (26 characters) is a capability, whether or not it is still open.
  const visible = ({ session }: Trace): boolean => {
    if (session === undefined || session === caller) return true;
    if (session.length === SHARED_SESSION_ID_LENGTH) return false;
    const open = deps.sessions.get(session as SessionId);
    return open === undefined || !isPrivate(open);
  };
  return { ok: true, data: { traces: deps.traces.last().filter(visible).slice(0, limit) } };
}

export function debugStatus(deps: CommandRouteDeps, caller: string | undefined): DriverOutcome {
  const clients = deps.clients.all().map((c) => {
    const info: Record<string, unknown> = {
      name: c.name,
      kind: c.kind,
      connected: c.transport !== null,
      connectedAt: c.connectedAt,
      tabs: deps.sessions.tabsOfClient(c.key).length,
    };
    if (c.version !== undefined) info.version = c.version;
    const owner = c.session === undefined ? undefined : deps.sessions.get(c.session);
    if (c.session !== undefined && (owner === undefined || c.session === caller || !isPrivate(owner)))
      info.session = c.session;
    const closesInMs = deps.launchers.idle.closesInMs(c.key);
    if (closesInMs !== undefined) info.closesInMs = closesInMs;
    return info;
  });
  for (const name of deps.launchers.names()) {
    if (!deps.clients.all().some((c) => c.launcher === name && c.session === undefined)) {
      clients.push({ name, kind: 'cdp', connected: false, connectedAt: 0, tabs: 0 });
    }
  }
  const remoteBrowsers = deps.launchers.remoteBrowsers();
  return {
    ok: true,
    data: {
      version: BPROXY_VERSION,
      protocolVersion: PROTOCOL_VERSION,
      pid: process.pid,
      port: deps.port(),
      uptimeMs: Math.round(deps.clock.monotonic() - deps.startedMono),
      clients,
      sessions: deps.sessions.visibleTo(caller).map((s) => deps.sessions.info(s)),
      pending: deps.pending.inFlight,
      handles: deps.handles.size,
      paired: deps.paired(),
      lifetime: {
        implicit: deps.idleExit !== null,
        idleExitMs: deps.idleExit?.afterMs ?? null,
        exitInMs: deps.idleExit?.exitInMs(1) ?? null,
        browserIdleMs: deps.launchers.idle.afterMs,
      },
      ...(remoteBrowsers === undefined ? {} : { remoteBrowsers }),
    },
  };
}

/** debug.log goes to the session's browser, or to the default one without a session. */
export async function debugLog(
  deps: CommandRouteDeps,
  ctx: CommandContext,
  session: SessionRecord | null,
): Promise<DriverOutcome> {
  if (session) return runTabAction(deps, ctx, session, ctx.request.params);
  const client = deps.clients.pickDefault();
  if (!client) return failed('NO_EXTENSION', 'no browser is connected');
  return forward(deps, ctx, null, () => ({ client }), ctx.request.params);
}
