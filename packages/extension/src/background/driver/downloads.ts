/**
 * Downloads in the user's own Chrome, kept apart: one a driven tab starts is written under the user's
 * Downloads folder as `bproxy-downloads/<guid>/<name>` and reported to the daemon, which moves it into the
 * session's folder; every other download (the user's own, in tabs no session holds) is left exactly as
 * Chrome would place it, and never cancelled, renamed or erased.
 *
 * Attribution: a DownloadItem names no tab, so a download is the agent's only when the debugger on a
 * driven tab announced it first (`Page.downloadWillBegin`: its guid, URL and suggested name). Chrome
 * emits that event just before it creates the item, and the item that follows with the same URL is
 * taken as that download; a download with no such announcement (a tab without the debugger — one no
 * session holds, or a driven tab the debugger left while idle) is the user's. While an agent's download
 * runs the tab's debugger stays (its progress events carry the byte count the cap is checked against).
 *
 * A download of a refused type (by its suggested name) or over the cap (its announced size, or its
 * progress) is cancelled — Chrome removes its partial file — and reported with why; finished or stopped,
 * an agent's download is erased from Chrome's list once the daemon was told.
 */
import {
  DEFAULT_DOWNLOAD_MAX_BYTES,
  downloadFileName,
  EXTENSION_DOWNLOAD_FOLDER,
  isRefusedDownloadType,
  type DriverDownloadMessage,
} from '@bproxy/protocol';
import type { ChromeApi, DownloadDelta, DownloadItem, FilenameSuggestion } from '../../chrome-api';
import type { WorkerLog } from '../log';
import type { PushTarget } from './driven-tabs';
import { messageOf } from './errors';

/** An announcement waits this long for its item; older ones are dropped. */
const ANNOUNCED_MS = 10_000;

interface Announced {
  readonly tabId: number;
  readonly guid: string;
  readonly url: string;
  readonly name: string;
  readonly at: number;
}

type Ending = 'completed' | 'canceled' | 'too_large' | 'type_refused';

interface Ours {
  readonly id: number;
  readonly tabId: number;
  readonly guid: string;
  readonly url: string;
  readonly name: string;
  /** Why bproxy cancelled it, once it did. */
  stopped?: 'too_large' | 'type_refused';
  /** Where Chrome writes it (absolute), once decided. */
  path?: string;
  /** The daemon was told how it ended. */
  ended: boolean;
}

/** What keeps a tab's debugger on while its download runs (idle-debugger.ts). */
export interface KeepDebugger {
  begin(tabId: number): Promise<void>;
  end(tabId: number): void;
}

const GUID = /^[A-Za-z0-9-]{1,64}$/;

export class ExtensionDownloads {
  private announced: Announced[] = [];
  private readonly byId = new Map<number, Ours>();
  private readonly byGuid = new Map<string, Ours>();
  private maxBytes = DEFAULT_DOWNLOAD_MAX_BYTES;
  private target: PushTarget | undefined;

  constructor(
    private readonly chrome: ChromeApi,
    private readonly isDriven: (tabId: number) => boolean,
    private readonly keep: KeepDebugger,
    private readonly now: () => number,
    private readonly log: WorkerLog,
  ) {}

  /** The daemon's cap (its welcome); none said: the default. */
  setCap(maxBytes: number | null): void {
    this.maxBytes = maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES;
  }

  install(target: PushTarget): void {
    const downloads = this.chrome.downloads;
    if (downloads === undefined) return;
    this.target = target;
    this.chrome.debugger.onEvent.addListener((source, method, params) => {
      if (source.tabId === undefined) return;
      if (method === 'Page.downloadWillBegin') this.announce(source.tabId, params);
      else if (method === 'Page.downloadProgress') this.progress(params);
    });
    downloads.onCreated.addListener((item) => this.created(item));
    downloads.onDeterminingFilename.addListener((item, suggest) => {
      this.determine(item, suggest);
      return undefined;
    });
    downloads.onChanged.addListener((delta) => this.changed(delta));
  }

  private announce(tabId: number, params: unknown): void {
    if (!this.isDriven(tabId)) return;
    const p = (params ?? {}) as { guid?: unknown; url?: unknown; suggestedFilename?: unknown };
    if (typeof p.guid !== 'string' || !GUID.test(p.guid) || typeof p.url !== 'string') return;
    const at = this.now();
    this.announced = this.announced.filter((a) => at - a.at < ANNOUNCED_MS);
    this.announced.push({
      tabId,
      guid: p.guid,
      url: p.url,
      name: typeof p.suggestedFilename === 'string' ? p.suggestedFilename.slice(0, 1024) : '',
      at,
    });
  }

  private created(item: DownloadItem): void {
    const at = this.now();
    const index = this.announced.findIndex(
      (a) => at - a.at < ANNOUNCED_MS && (a.url === item.url || a.url === item.finalUrl),
    );
    const found = this.announced[index];
    // Not announced by a driven tab's debugger: the user's download, left alone.
    if (found === undefined) return;
    this.announced.splice(index, 1);
    const ours: Ours = {
      id: item.id,
      tabId: found.tabId,
      guid: found.guid,
      url: found.url.slice(0, 8192),
      name: found.name,
      ended: false,
    };
    this.byId.set(item.id, ours);
    this.byGuid.set(ours.guid, ours);
    void this.keep.begin(ours.tabId);
    // One of a refused type is never filed: no `started`, so the daemon reserves no name for it.
    if (isRefusedDownloadType(ours.name)) {
      this.stop(ours, 'type_refused');
      return;
    }
    this.report(ours, 'started', 0);
    if (item.totalBytes > this.maxBytes) this.stop(ours, 'too_large');
  }

  private determine(item: DownloadItem, suggest: (suggestion?: FilenameSuggestion) => void): void {
    const ours = this.byId.get(item.id);
    if (ours === undefined || ours.stopped !== undefined) {
      suggest();
      return;
    }
    const last = item.filename.split(/[/\\]/).pop() ?? '';
    const name = downloadFileName(last === '' ? ours.name : last);
    suggest({ filename: `${EXTENSION_DOWNLOAD_FOLDER}/${ours.guid}/${name}`, conflictAction: 'uniquify' });
  }

  private progress(params: unknown): void {
    const p = (params ?? {}) as { guid?: unknown; receivedBytes?: unknown; totalBytes?: unknown };
    if (typeof p.guid !== 'string') return;
    const ours = this.byGuid.get(p.guid);
    if (ours === undefined || ours.stopped !== undefined) return;
    const received = typeof p.receivedBytes === 'number' ? p.receivedBytes : 0;
    const total = typeof p.totalBytes === 'number' ? p.totalBytes : 0;
    if (received > this.maxBytes || total > this.maxBytes) this.stop(ours, 'too_large');
  }

  private changed(delta: DownloadDelta): void {
    const ours = this.byId.get(delta.id);
    if (ours === undefined) return;
    const path = delta.filename?.current;
    if (path !== undefined && path !== '') ours.path = path;
    const state = delta.state?.current;
    if (state === 'complete') void this.finish(ours, 'completed');
    else if (state === 'interrupted') void this.finish(ours, 'canceled');
  }

  /** Cancels it: Chrome removes the partial file, and its end (interrupted) tells the daemon why. */
  private stop(ours: Ours, why: 'too_large' | 'type_refused'): void {
    if (ours.stopped !== undefined) return;
    ours.stopped = why;
    void this.chrome.downloads
      ?.cancel(ours.id)
      .catch((error: unknown) => this.log.debug('download_cancel_failed', { error: messageOf(error) }));
  }

  private async finish(ours: Ours, how: 'completed' | 'canceled'): Promise<void> {
    if (ours.ended) return;
    ours.ended = true;
    const item = (await this.chrome.downloads?.search({ id: ours.id }).catch(() => []))?.[0];
    const bytes = Math.max(0, Math.floor(item?.bytesReceived ?? 0));
    if (item !== undefined && item.filename !== '') ours.path = item.filename;
    // One that finished before the cancel took is still not kept: the daemon removes it.
    let state: Ending = ours.stopped ?? how;
    if (state === 'completed' && bytes > this.maxBytes) state = 'too_large';
    this.report(ours, state, state === 'type_refused' ? 0 : bytes);
    this.forget(ours);
  }

  /** Off Chrome's list (the file is the daemon's to move or remove), and the tab's debugger may rest. */
  private forget(ours: Ours): void {
    if (!this.byId.delete(ours.id)) return;
    this.byGuid.delete(ours.guid);
    this.keep.end(ours.tabId);
    void this.chrome.downloads
      ?.erase({ id: ours.id })
      .catch((error: unknown) => this.log.debug('download_erase_failed', { error: messageOf(error) }));
  }

  private report(ours: Ours, state: DriverDownloadMessage['state'], bytes: number): void {
    this.target?.push({
      type: 'download',
      tabId: ours.tabId,
      guid: ours.guid,
      url: ours.url,
      name: ours.name,
      state,
      bytes,
      ...(ours.path === undefined ? {} : { path: ours.path.slice(0, 4096) }),
    });
  }
}
