/**
 * `bproxy service start|stop|status`: the client's service operations, printed as the exact JSON of
 * the lifecycle contract on stdout; failures are plain sentences on stderr (ServiceError).
 */
import { daemonStatus, startDaemon, stopDaemon, type StartOptions } from '@bproxy/client/service';
import { printJson } from '../output';
import { besideCli } from '../runtime';
import { asServiceError } from './service-errors';

export type BrowserChoice = Pick<StartOptions, 'browser' | 'attach' | 'cdpUrl'>;

/** How this CLI starts its daemon: the daemon bundle shipped next to it (dist/daemon.mjs). */
export function startOptions(browser: BrowserChoice): StartOptions {
  return { ...browser, script: besideCli('daemon.mjs') };
}

export async function serviceStart(browser: BrowserChoice, pretty: boolean): Promise<void> {
  printJson(await asServiceError(() => startDaemon(startOptions(browser))), pretty);
}

export async function serviceStop(pretty: boolean): Promise<void> {
  printJson(await asServiceError(() => stopDaemon()), pretty);
}

export async function serviceStatus(pretty: boolean): Promise<void> {
  printJson(await asServiceError(async () => daemonStatus()), pretty);
}
