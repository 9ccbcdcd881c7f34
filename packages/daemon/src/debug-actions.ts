/** debug.last and debug.status: daemon-local views. Raw tab ids never appear here. */
import { BPROXY_VERSION, PROTOCOL_VERSION, type ActionParams } from '@bproxy/protocol';
import type { DriverOutcome } from './pending';
import type { CommandRouteDeps } from './routes/types';

export function debugLast(deps: CommandRouteDeps, params: ActionParams<'debug.last'>): DriverOutcome {
  return { ok: true, data: { traces: deps.traces.last(params.limit ?? 20) } };
}

export function debugStatus(deps: CommandRouteDeps): DriverOutcome {
  const clients = deps.clients.all().map((c) => {
    const info: Record<string, unknown> = {
      name: c.name,
      kind: c.kind,
      connected: c.transport !== null,
      connectedAt: c.connectedAt,
      tabs: deps.sessions.tabsOfClient(c.key).length,
    };
    if (c.version !== undefined) info.version = c.version;
    if (c.session !== undefined) info.session = c.session;
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
      sessions: deps.sessions.all().map((s) => deps.sessions.info(s)),
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
