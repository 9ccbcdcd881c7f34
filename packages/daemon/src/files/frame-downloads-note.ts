/**
 * In the user's Chrome a download a frame from another site starts is announced on the frame's own
 * target; the extension hears it through the tab debugger's child sessions, which Chrome lets an
 * extension have from version 125 (flat sessions in chrome.debugger). In an older Chrome such a
 * download is not seen as the agent's and goes where the user's go: the agent's answer says so rather
 * than only timing out.
 */
import type { ClientRecord } from '../browsers/clients';

/** The first Chrome whose chrome.debugger has child sessions. */
export const FRAME_SESSIONS_CHROME = 125;

/** What a `wait --download` that saw nothing adds for this browser, if anything. */
export function unseenFrameDownloadsNote(client: Pick<ClientRecord, 'kind' | 'userAgent'>): string {
  if (client.kind !== 'extension' || client.userAgent === undefined) return '';
  const major = /\bChrom(?:e|ium)\/(\d+)\./.exec(client.userAgent)?.[1];
  if (major === undefined || Number(major) >= FRAME_SESSIONS_CHROME) return '';
  return `; in this Chrome (${major}) a download a frame from another site starts is not seen as the agent's and goes to the user's Downloads folder (Chrome ${FRAME_SESSIONS_CHROME}+ lets bproxy see it)`;
}
