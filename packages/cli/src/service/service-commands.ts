/**
 * `bproxy service start|stop|status`: the client's service operations, printed as the exact JSON of
 * the lifecycle contract on stdout; failures are plain sentences on stderr (ServiceError).
 */
import type { Env } from '@bproxy/client';
import { daemonStatus, startDaemon, stopDaemon, type StartOptions } from '@bproxy/client/service';
import { printJson } from '../output';
import { besideCli } from '../runtime';
import { asServiceError } from './service-errors';

export type BrowserChoice = Pick<StartOptions, 'browser' | 'attach' | 'cdpUrl'>;

/** How this CLI starts its daemon: the daemon bundle shipped next to it (dist/daemon.mjs). */
export function startOptions(browser: BrowserChoice): StartOptions {
  return { ...browser, script: besideCli('daemon.mjs') };
}

export async function serviceStart(browser: BrowserChoice, pretty: boolean, env: Env): Promise<void> {
  printJson(await asServiceError(() => startDaemon({ ...startOptions(browser), env })), pretty);
}

export async function serviceStop(pretty: boolean, env: Env): Promise<void> {
  printJson(await asServiceError(() => stopDaemon(env)), pretty);
}

export async function serviceStatus(pretty: boolean, env: Env): Promise<void> {
  printJson(await asServiceError(async () => daemonStatus(env)), pretty);
}
