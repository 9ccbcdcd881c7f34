/**
 * The daemon's part of downloads in the tab actions (tab-steps.ts) and the `downloads` list:
 * - an acting action's answer names the downloads of its tab that began and were not named yet
 *   (`downloads: [{file, bytes, url, state}]`) — one the page started late is named by the next;
 * - `wait --download` is answered here, not by a driver: the session's oldest download that ended and
 *   no wait answered yet, else the next to end; one bproxy stopped answers its code (the approvals
 *   gate's APPROVAL_REQUIRED or POLICY_DENIED with its details, DOWNLOAD_TOO_LARGE,
 *   DOWNLOAD_TYPE_REFUSED), naming the download in the error's details;
 * - `downloads` lists the session's downloads.
 * Browsers the daemon launched (their driver stages downloads) and the user's own Chrome (the extension
 * has Chrome write a session tab's downloads under `bproxy-downloads/`, chrome.downloads) have their
 * downloads filed; a browser bproxy attached to or reaches remotely keeps them where its own go, and
 * `wait --download` says so (UNSUPPORTED_ACTION).
 */
import type { DriverOutcome } from '../browsers/forwarded-requests';
import type { SessionRecord } from '../sessions/sessions';
import { downloadView } from '../files/downloads';
import { unseenFrameDownloadsNote } from '../files/frame-downloads-note';
import { failed } from './outcome';
import type { TabStep } from './tab-steps';
import type { CommandRouteDeps } from './types';

/** How long `wait --download` waits when the request says no timeoutMs. */
const DEFAULT_WAIT_MS = 30_000;

/** On an acting action: its answer names the downloads its tab started. */
export const downloadsNamedStep: TabStep = {
  prepare(sc, params) {
    return {
      params,
      finish(outcome) {
        if (!outcome.ok) return outcome;
        const downloads = sc.deps.downloads.takeUnreported(sc.session, sc.tab.handle);
        if (downloads.length === 0) return outcome;
        return { ok: true, data: { ...(outcome.data as Record<string, unknown>), downloads } };
      },
    };
  },
};

/** On wait: `--download` is the daemon's to answer; any other condition goes to the driver. */
export const downloadWaitStep: TabStep = {
  prepare(sc, params) {
    if (params.download !== true) return { params };
    // Attached or remote browsers keep their downloads where theirs go: the daemon never hears of them,
    // so a wait would only time out.
    if (!sc.deps.launchers.filesDownloads(sc.client))
      return failed(
        'UNSUPPORTED_ACTION',
        `wait --download needs a browser bproxy launched or the extension; downloads in "${sc.client.name}" go where that browser's downloads go`,
      );
    return {
      params,
      forward: async () => {
        const started = sc.deps.clock.monotonic();
        const asked = typeof params.timeoutMs === 'number' ? params.timeoutMs : DEFAULT_WAIT_MS;
        const limit = Math.max(0, Math.min(asked, sc.ctx.deadlineMono - started));
        const wait = sc.deps.downloads.awaitEnded(sc.session);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<null>((resolve) => {
          timer = setTimeout(() => resolve(null), limit);
        });
        const entry = await Promise.race([wait.promise, timedOut]);
        clearTimeout(timer);
        wait.cancel();
        const waitedMs = Math.round(sc.deps.clock.monotonic() - started);
        if (entry === null)
          return failed(
            'WAIT_TIMEOUT',
            `no download of session ${sc.session.id} ended within ${limit} ms${unseenFrameDownloadsNote(sc.client)}`,
          );
        entry.reported = true;
        const download = downloadView(entry);
        if (entry.refusal !== undefined)
          return failed(entry.code ?? 'APPROVAL_REQUIRED', entry.refusal.message, {
            details: { ...entry.refusal.details, download },
          });
        if (entry.code !== undefined)
          return failed(entry.code, `the download of ${entry.url.slice(0, 200)} was stopped`, {
            details: { download },
          });
        return { ok: true, data: { url: sc.tab.url, title: sc.tab.title, waitedMs, download } };
      },
    };
  },
};

/** `downloads`: the session's downloads, oldest first. */
export function listDownloads(deps: CommandRouteDeps, session: SessionRecord): DriverOutcome {
  return { ok: true, data: { downloads: deps.downloads.list(session).map(downloadView) } };
}
