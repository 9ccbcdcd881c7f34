/**
 * The host's view of the daemon of its BPROXY_HOME, through @bproxy/client only: where it listens
 * (from the state files, checked like every client checks them), starting it when asked and none
 * runs, and a fresh direct pairing code through the authenticated `pairing.issue` action (32 random
 * bytes, which the daemon's failed-claim throttle does not hold: strangers cannot lock it out). The daemon token
 * stays inside the client; the pairing code passes through to the port and nowhere else. Before a
 * pairing is issued the daemon's version (its `debug.status`) is checked against the host's by the
 * protocol's rule: a daemon that does not work with this host is refused, naming the older part and
 * its fix, instead of pairing an extension to it.
 */
import { ClientError, DaemonClient, type Env } from '@bproxy/client';
import { isLifecycleError } from '@bproxy/client/lifecycle';
import { daemonStatus } from '@bproxy/client/service';
import { BPROXY_VERSION, actionDef, versionSkew } from '@bproxy/protocol';
import { HostFailure } from '../failure';
import { startDaemonImplicitly } from './implicit-start';

export interface DaemonState {
  readonly running: boolean;
  readonly port: number | null;
}

export interface DaemonLocation extends DaemonState {
  /** Whether this call started it. */
  readonly started: boolean;
}

export interface IssuedPairing {
  readonly port: number;
  readonly code: string;
  readonly expiresAt: number;
  readonly started: boolean;
}

/** What the host asks of the daemon; createDaemonAccess is the real one. */
export interface DaemonAccess {
  /** The state files' word, now: no start, no network. Throws when a state file is unsafe. */
  current(): DaemonState;
  /** Where the daemon listens; starts it (implicitly) when `start` is set and none runs. */
  locate(start: boolean): Promise<DaemonLocation>;
  /** A fresh one-time pairing code for /pair/claim, starting the daemon when none runs. */
  issuePairing(): Promise<IssuedPairing>;
}

export interface DaemonAccessOptions {
  readonly env: Env;
  /** The daemon bundle to start (dist/daemon.mjs next to the host bundle). */
  readonly daemonScript: string;
  /** This host's version (default BPROXY_VERSION; tests stand in another). */
  readonly version?: string;
  /** How long a pairing.issue may take (default 10 s). */
  readonly timeoutMs?: number;
}

export function createDaemonAccess(options: DaemonAccessOptions): DaemonAccess {
  const { env } = options;
  let starting: Promise<void> | null = null;

  const current = (): DaemonState => {
    const status = daemonStatus(env);
    return status.running ? { running: true, port: status.port } : { running: false, port: null };
  };

  /** One start at a time: two requests racing for a daemon share it. */
  const start = (): Promise<void> => {
    starting ??= startDaemonImplicitly(options.daemonScript, env).then(
      () => {
        starting = null;
      },
      (error: unknown) => {
        starting = null;
        // Someone else (a CLI, an agent) started it meanwhile: the lockfile decided; use theirs.
        if (isLifecycleError(error) && error.kind === 'already-running') return;
        throw error;
      },
    );
    return starting;
  };

  const locate = async (wanted: boolean): Promise<DaemonLocation> => {
    const now = current();
    if (now.running || !wanted) return { ...now, started: false };
    await start();
    const after = current();
    if (!after.running)
      throw new HostFailure(
        'NO_DAEMON',
        'the bproxy daemon was started but its state files say it is not running',
      );
    return { ...after, started: true };
  };

  return {
    current,
    locate,
    async issuePairing() {
      const { started } = await locate(true);
      const client = new DaemonClient({ env });
      try {
        const status = await client
          .call('debug.status', {}, { timeoutMs: options.timeoutMs ?? 10_000 })
          .catch((error: unknown) => {
            // The client refuses a daemon of a version it does not work with before sending anything;
            // the host words it as every part does, for the popup (the daemon is old: restart it).
            if (error instanceof ClientError && error.code === 'VERSION_MISMATCH') {
              const skew =
                error.daemonVersion === null
                  ? null
                  : versionSkew(
                      { part: 'daemon', version: error.daemonVersion },
                      { part: 'native host', version: options.version ?? BPROXY_VERSION },
                    );
              throw new HostFailure('VERSION_MISMATCH', skew?.message ?? error.message);
            }
            throw error;
          });
        if (!status.ok) throw new HostFailure(status.error.code, status.error.message);
        const daemon = actionDef('debug.status').result.safeParse(status.data);
        if (!daemon.success)
          throw new HostFailure('BAD_RESPONSE', 'the daemon answered debug.status outside the protocol');
        const { version } = daemon.data as { version: string };
        const skew = versionSkew(
          { part: 'daemon', version },
          { part: 'native host', version: options.version ?? BPROXY_VERSION },
        );
        if (skew !== null) throw new HostFailure('VERSION_MISMATCH', skew.message);
        const answer = await client.call(
          'pairing.issue',
          { kind: 'direct' },
          { timeoutMs: options.timeoutMs ?? 10_000 },
        );
        if (!answer.ok) throw new HostFailure(answer.error.code, answer.error.message);
        const issued = actionDef('pairing.issue').result.safeParse(answer.data);
        if (!issued.success)
          throw new HostFailure('BAD_RESPONSE', 'the daemon answered pairing.issue outside the protocol');
        const { port, code, expiresAt } = issued.data as { port: number; code: string; expiresAt: number };
        return { port, code, expiresAt, started };
      } finally {
        client.close();
      }
    },
  };
}
