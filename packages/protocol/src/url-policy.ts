/**
 * The URLs an agent may open in a driven tab (navigate, tab.open, and navigate's tab), checked by the
 * daemon for every driver and surface and again by each driver before it asks its browser: `http:`
 * and `https:` pages and `about:blank`. Everything else — local files (`file:`), `data:`, `blob:`,
 * `view-source:`, `javascript:`, the browser's own pages (`chrome:`, `chrome-extension:`, …), `ftp:`,
 * and anything that is not an absolute URL — is URL_NOT_ALLOWED. `file:` is the one exception a user
 * may turn on, for a browser bproxy launches itself (`--allow-file-urls`), never for their own.
 * Plain code (no zod, no node:), so the extension's service worker runs the same check.
 */

export type UrlVerdict =
  /** `url` is what the browser should be given: the parsed URL re-serialized, so it sees what was checked. */
  | { readonly ok: true; readonly url: string; readonly file: boolean }
  | { readonly ok: false; readonly reason: string };

export interface UrlPolicyOptions {
  /** `file:` URLs pass (a launched browser started with --allow-file-urls); default false. */
  readonly allowFile?: boolean;
}

/** What an agent is told it may open, in every refusal. */
export const ALLOWED_URLS = 'an agent may open http: and https: URLs and about:blank only';

/** The refusal for a `file:` URL in a browser that does not take them. */
export const FILE_URLS_REFUSED =
  'file: URLs (local files) are not allowed; only a browser bproxy launches itself opens them, when started with --allow-file-urls';

function shown(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
}

export function checkAgentUrl(raw: string, options: UrlPolicyOptions = {}): UrlVerdict {
  if (raw === 'about:blank') return { ok: true, url: raw, file: false };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, reason: `${shown(raw)} is not an absolute URL: ${ALLOWED_URLS}` };
  }
  const scheme = parsed.protocol.toLowerCase();
  if (scheme === 'http:' || scheme === 'https:') {
    if (parsed.hostname === '') return { ok: false, reason: `${shown(raw)} has no host: ${ALLOWED_URLS}` };
    return { ok: true, url: parsed.href, file: false };
  }
  if (scheme === 'file:') {
    if (options.allowFile === true) return { ok: true, url: parsed.href, file: true };
    return { ok: false, reason: FILE_URLS_REFUSED };
  }
  return { ok: false, reason: `${shown(scheme)} URLs are not allowed: ${ALLOWED_URLS}` };
}
