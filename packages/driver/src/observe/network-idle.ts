/**
 * wait --network-idle over a tab's log: until no request of the tab has been in flight (sent, neither
 * finished nor failed) for NETWORK_IDLE_MS, counted from the wait's start; at the deadline a
 * WAIT_TIMEOUT naming how many requests were still in flight and the first of them.
 */
import { NETWORK_IDLE_MS, makeError } from '@bproxy/protocol';
import { DriverFailure } from '../failure';
import type { NetworkEntry, TabLog } from './tab-log';

/** The requests of the log still in flight. */
export function inFlight(log: TabLog): NetworkEntry[] {
  return log.network.items.filter((e) => !e.finished);
}

function shortUrl(url: string): string {
  return url.length > 200 ? `${url.slice(0, 199)}…` : url;
}

/** Resolves once the log has had no request in flight for `quietMs`; WAIT_TIMEOUT after `timeoutMs`. */
export function waitNetworkIdle(log: TabLog, timeoutMs: number, quietMs = NETWORK_IDLE_MS): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let quiet: ReturnType<typeof setTimeout> | undefined;
    const end = (): void => {
      off();
      clearTimeout(deadline);
      clearTimeout(quiet);
    };
    const check = (): void => {
      if (inFlight(log).length > 0) {
        clearTimeout(quiet);
        quiet = undefined;
      } else if (quiet === undefined) {
        quiet = setTimeout(() => {
          end();
          resolve();
        }, quietMs);
      }
    };
    const off = log.onChange(check);
    const deadline = setTimeout(() => {
      end();
      const pending = inFlight(log);
      const named = pending.slice(0, 2).map((e) => shortUrl(e.url));
      const still =
        pending.length === 0
          ? 'the last request ended less than that before the deadline'
          : `${pending.length} request${pending.length === 1 ? ' was' : 's were'} still in flight: ${named.join(', ')}${pending.length > 2 ? ', …' : ''}`;
      const message = `waited ${timeoutMs} ms for the network to be idle for ${quietMs} ms; ${still}`;
      reject(new DriverFailure(makeError('WAIT_TIMEOUT', message)));
    }, timeoutMs);
    check();
  });
}
