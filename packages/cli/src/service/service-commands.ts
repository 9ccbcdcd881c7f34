/**
 * `bproxy service start|stop|status`: the client's service operations, printed as the exact JSON of
 * the lifecycle contract on stdout; failures are plain sentences on stderr (ServiceError).
 */
import { parseMaxBrowsers } from '@bproxy/client/lifecycle';
import { daemonStatus, startDaemon, stopDaemon, type StartOptions } from '@bproxy/client/service';
import { printJson } from '../output';
import { besideCli } from '../runtime';
import { asServiceError } from './service-errors';

export type BrowserChoice = Omit<StartOptions, 'script' | 'env'>;

/** How this CLI starts its daemon: the daemon bundle shipped next to it (dist/daemon.mjs). */
export function startOptions(browser: BrowserChoice): StartOptions {
  return { ...browser, script: besideCli('daemon.mjs') };
}

/** `service start`'s options as typed (the cap still text), checked before anything starts. */
export type ServiceStartOptions = Omit<BrowserChoice, 'cdpMaxBrowsers' | 'implicit'> & {
  cdpMaxBrowsers: string | null;
};

export async function serviceStart(options: ServiceStartOptions, pretty: boolean): Promise<void> {
  const started = await asServiceError(async () => {
    const { cdpMaxBrowsers, ...rest } = options;
    const cap = cdpMaxBrowsers === null ? null : parseMaxBrowsers('--cdp-max-browsers', cdpMaxBrowsers);
    return startDaemon(startOptions({ ...rest, cdpMaxBrowsers: cap }));
  });
  printJson(started, pretty);
}

export async function serviceStop(pretty: boolean): Promise<void> {
  printJson(await asServiceError(() => stopDaemon()), pretty);
}

export async function serviceStatus(pretty: boolean): Promise<void> {
  printJson(await asServiceError(async () => daemonStatus()), pretty);
}
