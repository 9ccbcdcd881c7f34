/**
 * Failures in the worker: the driver kit's DriverFailure (re-exported, so that the worker's modules
 * find every failure helper here), and chrome.* rejections mapped to catalogue errors. Platform error
 * messages are matched here, in one place, because chrome.* reports its failures only as text.
 */
import { DriverFailure, messageOf } from '@bproxy/driver';
import { checkAgentUrl, makeError, type BproxyError } from '@bproxy/protocol';

export { DriverFailure, fail, messageOf } from '@bproxy/driver';

const NOT_SCRIPTABLE = [
  /cannot access (a |contents of )?(chrome|edge|about|devtools|chrome-extension|view-source)/i,
  /cannot access contents of (url|the page)/i,
  /cannot be scripted/i,
  /showing error page/i,
  /extension manifest must request permission/i,
  /cannot access a chrome/i,
];

/** Maps a chrome.* rejection to a catalogue error. */
export function fromPlatformError(error: unknown, what: string): BproxyError {
  if (error instanceof DriverFailure) return error.error;
  const message = messageOf(error);
  if (/no tab with id/i.test(message)) return makeError('TAB_NOT_FOUND', `${what}: the tab is gone`);
  if (NOT_SCRIPTABLE.some((re) => re.test(message))) {
    return makeError('PAGE_NOT_SCRIPTABLE', `${what}: the browser forbids scripts on this page (${message})`);
  }
  return makeError('DRIVER_ERROR', `${what}: ${message}`);
}

/**
 * The URL chrome.tabs may be given, checked again here whatever the daemon did: http:, https: and
 * about:blank only — never file: (this is the user's own browser), data:, view-source: or a browser or
 * extension page, this extension's own panel and popup included. Throws URL_NOT_ALLOWED otherwise.
 */
export function allowedUrl(url: string, what: string): string {
  const verdict = checkAgentUrl(url);
  if (!verdict.ok) throw new DriverFailure(makeError('URL_NOT_ALLOWED', `${what}: ${verdict.reason}`));
  return verdict.url;
}
