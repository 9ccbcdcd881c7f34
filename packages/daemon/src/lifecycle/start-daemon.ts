/**
 * Bringing one daemon up in a state directory, in the order that keeps readers safe:
 * home → lock → daemon token → extension tokens → logger → server → listen → pairing.json → port.
 * The port file is written last because it is the readiness signal; anything that fails before it
 * undoes what this process created (never what it found) and surfaces as a LifecycleError.
 * Stopping drains the server, then removes the transient files and finally the lock.
 */
import type { Logger, LoggerOptions, DailyFileDestination } from '../logs/logger';
import type { DaemonServer } from '../http/server';
import type { BrowserLauncher, ServerOptions } from '../server-options';
import {
  acquireLock,
  type DaemonConfig,
  type DaemonIdentityCheck,
  describeError,
  ensureStateHome,
  extensionsFileStamp,
  readFilesConfig,
  PolicyStore,
  readSecret,
  errnoCode,
  LifecycleError,
  liveTrustedExtensionIds,
  type LockHandle,
  removeStateFileQuietly,
  statePaths,
  type StatePaths,
  trustedExtensionIds,
  writeDaemonToken,
  writePairingFile,
  writePortFile,
} from '@bproxy/client/lifecycle';
import { FileExtensionTokenStore } from './extension-token-store';
import { readNetworkSettings } from '../observe/network-settings';

export interface StartDeps {
  buildServer(opts: ServerOptions): Promise<DaemonServer>;
  createLogger(options: LoggerOptions): { logger: Logger; destination: DailyFileDestination | null };
  launchers?: BrowserLauncher[];
  /** How long a browser the daemon opened may sit without a tab (null: never closed for that). */
  browserIdleMs?: number | null;
  /**
   * An implicit start (`--implicit`): called once no agent has used the daemon for config.idleExitMs;
   * the caller stops the daemon the way a signal does. Absent: the daemon stays until stopped.
   */
  onIdleExit?: (idleMs: number) => void;
  /** Folders `service start --allow-files` named (files.json's are read here). */
  allowFiles?: readonly string[];
  /** Largest download kept (default 100 MiB). */
  downloadMaxBytes?: number;
  /** Seam for tests that run the lifecycle inside the test process. */
  isOurDaemon?: DaemonIdentityCheck;
}

export interface RunningDaemon {
  readonly pid: number;
  readonly port: number;
  readonly paths: StatePaths;
  readonly logger: Logger;
  /** Drains and cleans up; idempotent (a second signal waits for the first shutdown). */
  stop(reason: string): Promise<void>;
  /** Flushes the log synchronously: for the last words of a crashing process. */
  flushLog(): void;
}

function listenError(error: unknown, port: number): LifecycleError {
  const code = errnoCode(error);
  if (code === 'EADDRINUSE') {
    return new LifecycleError(
      'port',
      `port ${port} is in use on 127.0.0.1 (set BPROXY_PORT to another port, or to 0 for any free port)`,
    );
  }
  if (code === 'EACCES')
    return new LifecycleError(
      'port',
      `port ${port} cannot be bound: permission denied (use a port above 1023)`,
    );
  return new LifecycleError('port', `cannot listen on 127.0.0.1:${port}: ${describeError(error)}`);
}

export async function startDaemon(config: DaemonConfig, deps: StartDeps): Promise<RunningDaemon> {
  const paths = statePaths(config.home);
  ensureStateHome(paths);
  const lockOptions = deps.isOurDaemon ? { isOurDaemon: deps.isOurDaemon } : {};
  const lock: LockHandle = await acquireLock(paths, lockOptions);
  const created: string[] = [];
  let server: DaemonServer | null = null;
  let log: ReturnType<StartDeps['createLogger']> | null = null;
  try {
    // The trusted extension ids, one setting: an unsafe or malformed extensions.json stops the start.
    const since = extensionsFileStamp(paths);
    const extensionIds = trustedExtensionIds(paths);
    // The folders agents may upload from: files.json (unsafe or malformed stops the start) and argv.
    const allowedFolders = [...readFilesConfig(paths), ...(deps.allowFiles ?? [])];
    // The site policy: an unsafe or malformed policy.json stops the start; read again when it changes.
    let onPolicyChange: (problem: string | null) => void = () => undefined;
    const sitePolicy = new PolicyStore(paths, (problem) => onPolicyChange(problem));
    const daemonToken = writeDaemonToken(paths);
    created.push(paths.token);
    const extensionTokens = FileExtensionTokenStore.load(paths.extensionToken);
    log = deps.createLogger({ dir: paths.logs, level: config.logLevel });
    const { logger } = log;
    logger.info({ event: 'trusted_extensions', ids: extensionIds });
    // Read again when the file changes (one lstat per gate decision that names an extension).
    const liveIds = liveTrustedExtensionIds(paths, extensionIds, since, (ids, problem) => {
      if (problem === null) logger.info({ event: 'trusted_extensions', ids });
      else logger.warn({ event: 'trusted_extensions_refused', reason: problem });
    });
    logger.info({ event: 'allowed_folders', folders: allowedFolders });
    onPolicyChange = (problem) => {
      if (problem === null) logger.info({ event: 'site_policy_read' });
      else logger.warn({ event: 'site_policy_refused', reason: problem });
    };
    const options: ServerOptions = {
      port: config.port,
      daemonToken,
      extensionIds: liveIds,
      extensionTokens,
      logger,
      tmpRoot: paths.tmp,
      allowedFolders,
      debuggerIdleMs: config.debuggerIdleMs,
      sitePolicy,
      networkSettings: readNetworkSettings(paths.home, (why) =>
        logger.warn({ event: 'network_settings_ignored', why }),
      ),
      secrets: (name) => readSecret(paths.home, name),
      onPairingConsumed: () => {
        removeStateFileQuietly(paths.pairing);
        logger.info({ event: 'pairing_file_removed' });
      },
    };
    if (deps.launchers) options.launchers = deps.launchers;
    if (deps.browserIdleMs !== undefined) options.browserIdleMs = deps.browserIdleMs;
    if (deps.downloadMaxBytes !== undefined) options.downloadMaxBytes = deps.downloadMaxBytes;
    if (deps.onIdleExit) options.idleExit = { afterMs: config.idleExitMs, onIdle: deps.onIdleExit };
    server = await deps.buildServer(options);
    let port: number;
    try {
      port = await server.listen();
    } catch (error) {
      throw listenError(error, config.port);
    }
    const issued = server.issuePairingCode();
    created.push(paths.pairing);
    writePairingFile(paths, issued);
    created.push(paths.port);
    writePortFile(paths, port);
    logger.info({ event: 'daemon_ready', pid: lock.pid, port, home: paths.home });
    return running(paths, lock, server, log, port);
  } catch (error) {
    log?.logger.error({ event: 'daemon_start_failed', err: describeError(error) });
    if (server) await server.shutdown().catch(() => undefined);
    for (const file of created) removeStateFileQuietly(file);
    lock.release();
    await log?.destination?.end();
    throw error;
  }
}

function running(
  paths: StatePaths,
  lock: LockHandle,
  server: DaemonServer,
  log: ReturnType<StartDeps['createLogger']>,
  port: number,
): RunningDaemon {
  const { logger, destination } = log;
  let stopping: Promise<void> | null = null;
  const stop = async (reason: string) => {
    logger.info({ event: 'daemon_stopping', reason });
    try {
      await server.shutdown();
    } catch (error) {
      logger.error({ event: 'shutdown_failed', err: describeError(error) });
    }
    // pairing.json and port go first: readers must stop trusting this daemon before the lock frees.
    for (const file of [paths.pairing, paths.port, paths.token]) removeStateFileQuietly(file);
    lock.release();
    logger.info({ event: 'daemon_stopped' });
    // Resolves once the last lines are on disk, so the process may exit right after stop().
    await destination?.end();
  };
  return {
    pid: lock.pid,
    port,
    paths,
    logger,
    stop(reason) {
      stopping ??= stop(reason);
      return stopping;
    },
    flushLog() {
      destination?.flushSync();
    },
  };
}
