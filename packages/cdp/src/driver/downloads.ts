/**
 * Downloads in a browser bproxy launched: every download goes to the daemon's staging folder under its
 * browser id (`Browser.setDownloadBehavior` allowAndName, events on), is attributed to the tab whose
 * frame started it (its main frame or any frame in it, cross-origin and out-of-process ones included), and is reported to the daemon as it starts and ends. One of a refused type (by the
 * name the page suggested) is cancelled at once; one that grows past the cap is cancelled when its
 * progress says so. A stopped download is reported only when the browser says it ended (its final
 * 'canceled' or 'completed' progress): a small one can finish before the cancel lands, and its file
 * exists only then, so the daemon's removal on the report leaves nothing behind before it answers.
 * The daemon files completed ones in the session's folder and removes the rest.
 * A download no driven tab started is cancelled: in a launched browser every tab is an agent's.
 */
import { isRefusedDownloadType, type DriverDownloadMessage } from '@bproxy/protocol';
import type { CdpConnection } from '../cdp/connection';
import type { PageTab } from './page-tab';

export interface DownloadSettings {
  /** The daemon's staging folder: the browser writes each download there under its guid. */
  readonly dir: string;
  /** Larger downloads are cancelled. */
  readonly maxBytes: number;
}

type Report = Omit<DriverDownloadMessage, 'type'>;

interface Live {
  readonly tabId: number;
  readonly url: string;
  readonly name: string;
  /** Why bproxy stopped it, with its bytes then; reported once the browser says it ended. */
  stopped?: { readonly state: 'too_large' | 'type_refused'; readonly bytes: number };
}

export class BrowserDownloads {
  private readonly live = new Map<string, Live>();

  constructor(
    private readonly connection: CdpConnection,
    private readonly settings: DownloadSettings,
    private readonly tabOfFrame: (frameId: string) => PageTab | undefined,
    private readonly report: (download: Report) => void,
  ) {}

  /** Sends downloads to the staging folder and turns their events on. */
  async start(timeoutMs: number): Promise<void> {
    const c = this.connection;
    c.on('Browser.downloadWillBegin', (event) => this.willBegin(event));
    c.on('Browser.downloadProgress', (event) => this.progress(event));
    await c.send(
      'Browser.setDownloadBehavior',
      { behavior: 'allowAndName', downloadPath: this.settings.dir, eventsEnabled: true },
      { timeoutMs },
    );
  }

  private cancel(guid: string): void {
    void this.connection.send('Browser.cancelDownload', { guid }).catch(() => undefined);
  }

  private willBegin(event: { frameId: string; guid: string; url: string; suggestedFilename: string }): void {
    const tab = this.tabOfFrame(event.frameId);
    if (tab === undefined) {
      this.cancel(event.guid);
      return;
    }
    const download: Live = { tabId: tab.tabId, url: event.url.slice(0, 8192), name: event.suggestedFilename };
    const base = {
      tabId: download.tabId,
      guid: event.guid,
      url: download.url,
      name: download.name.slice(0, 1024),
    };
    if (isRefusedDownloadType(download.name)) {
      this.live.set(event.guid, { ...download, stopped: { state: 'type_refused', bytes: 0 } });
      this.cancel(event.guid);
      return;
    }
    this.live.set(event.guid, download);
    this.report({ ...base, state: 'started', bytes: 0 });
  }

  private progress(event: {
    guid: string;
    totalBytes: number;
    receivedBytes: number;
    state: 'inProgress' | 'completed' | 'canceled';
  }): void {
    const download = this.live.get(event.guid);
    if (download === undefined) return;
    const base = {
      tabId: download.tabId,
      guid: event.guid,
      url: download.url,
      name: download.name.slice(0, 1024),
    };
    const bytes = Math.max(0, Math.floor(event.receivedBytes));
    const over = event.receivedBytes > this.settings.maxBytes || event.totalBytes > this.settings.maxBytes;
    if (over && download.stopped === undefined) {
      download.stopped = { state: 'too_large', bytes };
      if (event.state !== 'completed') this.cancel(event.guid);
    }
    if (event.state === 'inProgress') return;
    // It ended: cancelled, or completed (a stopped one whose cancel came too late); its file is final.
    this.live.delete(event.guid);
    if (download.stopped !== undefined) {
      this.report({ ...base, ...download.stopped });
      return;
    }
    this.report({ ...base, state: event.state === 'completed' ? 'completed' : 'canceled', bytes });
  }
}
