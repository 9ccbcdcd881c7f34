/**
 * A driven tab behind the user's behaves as one in front. The debugger's focus emulation
 * (dialog-tracker.ts) already makes its page visible — `document.hidden` false, timers no longer
 * throttled to once a second — but Chrome draws no frames for a tab out of view, so the page's
 * requestAnimationFrame stalls and an animation (a date picker's fade, an accordion's slide) stops
 * mid-way under the agent's reads. A screencast of the tab, the smallest Chrome allows, makes it draw:
 * frames are produced only when the page changes, each one acknowledged here and dropped. It runs
 * while the debugger is on a tab that is not the active one of its window (the tab in front draws
 * anyway, so it pays nothing), and ends with the debugger (idle detach, release, close).
 */
import type { ChromeApi } from '../../chrome-api';
import { messageOf } from './errors';
import type { WorkerLog } from '../log';
import type { DialogTracker } from './dialog-tracker';

/** The screencast's image: tiny and of the lowest quality, as nobody looks at it. */
const SCREENCAST = { format: 'jpeg', quality: 1, maxWidth: 8, maxHeight: 8 } as const;

export class BackgroundFrames {
  private readonly casting = new Set<number>();

  constructor(
    private readonly chrome: ChromeApi,
    private readonly debuggers: Pick<DialogTracker, 'isAttached' | 'attachedTabs'>,
    private readonly log: WorkerLog,
  ) {}

  install(): void {
    this.chrome.debugger.onEvent.addListener((source, method, params) => {
      const tabId = source.tabId;
      if (tabId === undefined || method !== 'Page.screencastFrame') return;
      const sessionId = (params as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof sessionId !== 'number') return;
      // Unacknowledged, Chrome stops sending frames — and stops drawing them.
      this.chrome.debugger
        .sendCommand({ tabId }, 'Page.screencastFrameAck', { sessionId })
        .catch(() => undefined);
    });
    this.chrome.debugger.onDetach.addListener((source) => {
      if (source.tabId !== undefined && source.sessionId === undefined) this.casting.delete(source.tabId);
    });
    this.chrome.tabs.onRemoved.addListener((tabId) => this.casting.delete(tabId));
    // A driven tab the user had in front and left: it is behind now.
    this.chrome.tabs.onActivated?.addListener(({ tabId, windowId }) => {
      for (const other of this.debuggers.attachedTabs()) if (other !== tabId) void this.keep(other, windowId);
    });
  }

  /** The debugger is on the tab (attach): it draws while it is behind another. */
  async keep(tabId: number, inWindow?: number): Promise<void> {
    if (this.casting.has(tabId) || !this.debuggers.isAttached(tabId)) return;
    try {
      const tab = await this.chrome.tabs.get(tabId);
      if (tab.active || (inWindow !== undefined && tab.windowId !== inWindow)) return;
      this.casting.add(tabId);
      await this.chrome.debugger.sendCommand({ tabId }, 'Page.startScreencast', { ...SCREENCAST });
      this.log.debug('background_frames_on', { tabId });
    } catch (error) {
      this.casting.delete(tabId);
      this.log.debug('background_frames_failed', { tabId, error: messageOf(error) });
    }
  }
}
