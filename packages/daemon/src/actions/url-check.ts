/**
 * The URLs agents may open (protocol's url-policy), enforced for navigate and tab.open whatever the
 * surface (CLI, MCP, the in-browser agent) and the driver. Two looks: before anything is chosen or
 * created, every URL that no browser may open is refused; once the browser is known, a file: URL is
 * refused unless that browser is one the daemon launched with --allow-file-urls. The driver is given
 * the URL as it was parsed, so it loads exactly what was checked.
 */
import { checkAgentUrl } from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from './outcome';
import type { CommandRouteDeps } from './types';

/** The refusal of a URL no browser may open, or null when some browser may (file: pending its browser). */
export function screenUrl(url: string): DriverOutcome | null {
  const verdict = checkAgentUrl(url, { allowFile: true });
  return verdict.ok ? null : failed('URL_NOT_ALLOWED', verdict.reason);
}

/** The URL to forward to `client`'s browser, or the refusal. */
export function urlForClient(
  deps: CommandRouteDeps,
  client: ClientRecord,
  url: string,
): { url: string } | DriverOutcome {
  const verdict = checkAgentUrl(url, { allowFile: deps.launchers.allowsFileUrls(client) });
  if (!verdict.ok) return failed('URL_NOT_ALLOWED', `${verdict.reason} (not browser "${client.name}")`);
  return { url: verdict.url };
}
