/**
 * The raw tab ids this extension has been asked to drive (opened by tab.open or addressed by a
 * request), kept in chrome.storage.session across worker restarts. Navigation and tab-closed pushes go
 * to the daemon for these tabs only: the rest of the user's browsing is none of its business.
 */
import type { DriverMessage } from '@bproxy/protocol';
import type { StorageArea } from '../../chrome-api';
import { messageOf } from './errors';
import type { WorkerLog } from '../log';

const STORAGE_KEY = 'drivenTabs';

/**
 * Where what the driver tells the daemon unasked goes (navigations, closed and opened tabs): the daemon
 * link's connection, which also wakes on each event.
 */
export interface PushTarget {
  push(message: DriverMessage): void;
  ensureConnected(): void;
}

export class DrivenTabs {
  private readonly ids = new Set<number>();
  private readonly addedListeners: ((tabId: number) => void)[] = [];
  private readonly deletedListeners = new Set<(tabId: number) => void>();
  readonly ready: Promise<void>;

  constructor(
    private readonly session: StorageArea,
    private readonly log: WorkerLog,
  ) {
    this.ready = this.restore();
  }

  has(tabId: number): boolean {
    return this.ids.has(tabId);
  }

  /** Every tab driven now. */
  list(): number[] {
    return [...this.ids];
  }

  get size(): number {
    return this.ids.size;
  }

  add(tabId: number): void {
    if (this.ids.has(tabId)) return;
    this.ids.add(tabId);
    for (const listener of this.addedListeners) listener(tabId);
    void this.persist();
  }

  onAdded(listener: (tabId: number) => void): void {
    this.addedListeners.push(listener);
  }

  delete(tabId: number): boolean {
    if (!this.ids.delete(tabId)) return false;
    for (const listener of [...this.deletedListeners]) listener(tabId);
    void this.persist();
    return true;
  }

  /** Resolves once the tab is no longer driven (its close was seen and told), or after `timeoutMs`. */
  gone(tabId: number, timeoutMs: number): Promise<void> {
    if (!this.ids.has(tabId)) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (deleted: number): void => {
        if (deleted === tabId) done();
      };
      const timer = setTimeout(() => done(), timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.deletedListeners.delete(listener);
        resolve();
      };
      this.deletedListeners.add(listener);
    });
  }

  private async restore(): Promise<void> {
    try {
      const got = await this.session.get(STORAGE_KEY);
      const raw = got[STORAGE_KEY];
      if (Array.isArray(raw)) for (const id of raw) if (typeof id === 'number') this.ids.add(id);
    } catch (error) {
      this.log.warn('driven_tabs_restore_failed', { error: messageOf(error) });
    }
  }

  private async persist(): Promise<void> {
    try {
      await this.session.set({ [STORAGE_KEY]: [...this.ids] });
    } catch (error) {
      this.log.warn('driven_tabs_persist_failed', { error: messageOf(error) });
    }
  }
}
