/**
 * One page target we drive: its flat session, the state CDP events tell us (main frame, the isolated
 * world's context, lifecycle per loader, whether a navigation is in progress, the open dialog, the tabs
 * its page opened), and the pushes the daemon needs (navigation). Actions live elsewhere; they read
 * this state and wait on it.
 */
import { EventEmitter } from 'node:events';
import { TabLog } from '@bproxy/driver';
import type { HumanWaiver } from '@bproxy/protocol';
import { CdpClosedError, CdpTimeoutError } from '../cdp/errors';
import { LOGGED_EVENTS } from '../cdp/protocol-types';
import type { CdpSession } from '../cdp/session';
import { TabFrames } from './tab-frames';

/** The isolated world the page bundle lives in; the page's own scripts cannot see or patch it. */
export const WORLD_NAME = '__bproxy';

export interface OpenDialog {
  type: string;
  message: string;
  defaultPrompt?: string;
}

export interface TabHooks {
  navigation(tab: PageTab, url: string, cause: 'committed' | 'history_state'): void;
}

/** The tab went away (closed or crashed) while something waited on it. */
export class TabGoneError extends Error {
  override readonly name = 'TabGoneError';
}

/** A tab this tab's page opened, once the driver drives it and told the daemon; null if it could not. */
export type OpenedTab = Promise<{ tabId: number; url: string } | null>;

const MAX_URL = 8192;
const KEPT_LOADERS = 8;

export class PageTab {
  pinned = false;
  /** The daemon's waiver of human checks for this tab, as the request being run forwarded it. */
  humanWaiver: HumanWaiver | undefined;
  /** Where the trusted pointer rests, in top-viewport CSS pixels (null until it first moves). */
  pointer: { x: number; y: number } | null = null;
  mainFrameId: string;
  contextId: number | undefined;
  dialog: OpenDialog | undefined;
  /** Main-frame commits and same-document URL changes seen so far; actions compare before and after. */
  navigations = 0;
  /** The latest main-frame commit: its loader, and whether no new document will load (same document, bfcache). */
  lastCommit: { loaderId: string; complete: boolean } | undefined;
  /** A main-frame navigation was requested and its new document is not interactive yet. */
  loading = false;
  /** The main frame's URL as the last commit left it. */
  url = '';
  /** The last navigation of this tab the site policy stopped (nav-guard.ts): its error page is told as that URL. */
  stoppedUrl: string | undefined;
  /** How many of its navigations the site policy stopped: a load waited on will not come. */
  stops = 0;
  /** New windows the page asked for (Page.windowOpen): each becomes a tab in `opened`, unless blocked. */
  windowOpens = 0;
  /** The URL the page last asked a new window for: a tab opened without an opener starts blank. */
  lastWindowOpenUrl = '';
  /** What the tab logged and fetched (console, network), bounded; it goes with the tab. */
  readonly log = new TabLog();
  /** The tabs this tab's page opened, in order (see ConnectedBrowser). */
  readonly opened: OpenedTab[] = [];
  /** Its cross-origin frames, out-of-process ones included (reads and actions inside them). */
  readonly frames = new TabFrames(this);
  private readonly lifecycle = new Map<string, Set<string>>();
  private readonly changes = new EventEmitter();
  private readonly unsubscribe: (() => void)[] = [];
  private goneReason: string | undefined;

  constructor(
    readonly tabId: number,
    readonly targetId: string,
    readonly session: CdpSession,
    private readonly hooks: TabHooks,
  ) {
    this.mainFrameId = targetId;
    this.changes.setMaxListeners(0);
    this.listen();
  }

  get gone(): boolean {
    return this.goneReason !== undefined;
  }

  /** The page bundle's source, kept to inject into documents that predate setup. */
  bundle = '';

  async setup(bundle: string, timeoutMs: number): Promise<void> {
    this.bundle = bundle;
    const s = this.session;
    await Promise.all([
      s.send('Page.enable', {}, timeoutMs),
      s.send('Page.setLifecycleEventsEnabled', { enabled: true }, timeoutMs),
      s.send('Runtime.enable', {}, timeoutMs),
      s.send('Log.enable', {}, timeoutMs),
      s.send('Network.enable', {}, timeoutMs),
      s.send(
        'Page.addScriptToEvaluateOnNewDocument',
        { source: bundle, worldName: WORLD_NAME, runImmediately: true },
        timeoutMs,
      ),
      // Headless gives focus to one page only; without this, key events to a background tab go nowhere.
      s.send('Emulation.setFocusEmulationEnabled', { enabled: true }, timeoutMs),
      this.frames.watch(s, timeoutMs),
    ]);
    const tree = await s.send('Page.getFrameTree', {}, timeoutMs);
    this.mainFrameId = tree.frameTree.frame.id;
  }

  hasLifecycle(loaderId: string, name: string): boolean {
    return this.lifecycle.get(loaderId)?.has(name) ?? false;
  }

  /**
   * Resolves with the first non-undefined value of `check`, re-evaluated on every state change; rejects
   * when the tab or the browser goes away or the time is up.
   */
  waitUntil<T>(
    check: () => T | undefined,
    timeoutMs: number,
    what: string,
  ): { promise: Promise<T>; cancel(): void } {
    let cancel = (): void => undefined;
    const promise = new Promise<T>((resolve, reject) => {
      const evaluate = (): void => {
        if (this.goneReason !== undefined) {
          done();
          reject(
            this.session.connection.closed
              ? new CdpClosedError(`${what}: ${this.goneReason}`)
              : new TabGoneError(`${what}: ${this.goneReason}`),
          );
          return;
        }
        const value = check();
        if (value === undefined) return;
        done();
        resolve(value);
      };
      const timer = setTimeout(() => {
        done();
        reject(new CdpTimeoutError(`${what}: not within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.changes.off('change', evaluate);
      };
      cancel = done;
      this.changes.on('change', evaluate);
      evaluate();
    });
    return { promise, cancel: () => cancel() };
  }

  markGone(reason: string): void {
    if (this.goneReason !== undefined) return;
    this.goneReason = reason;
    for (const off of this.unsubscribe) off();
    this.changed();
  }

  /** Something the actions wait on changed outside this class (a tab this one opened is ready). */
  changed(): void {
    this.changes.emit('change');
  }

  private listen(): void {
    const s = this.session;
    const on = this.unsubscribe;
    on.push(
      s.on('Page.frameNavigated', ({ frame, type }) => {
        if (frame.parentId !== undefined) return;
        this.mainFrameId = frame.id;
        this.navigations++;
        const restored = type === 'BackForwardCacheRestore';
        if (restored) this.loading = false;
        this.lastCommit = { loaderId: frame.loaderId, complete: restored };
        // The policy's error page stands for the URL it stopped, as the extension driver's tab URL does.
        const stopped = frame.unreachableUrl === this.stoppedUrl ? this.stoppedUrl : undefined;
        this.url = (stopped ?? `${frame.url}${frame.urlFragment ?? ''}`).slice(0, MAX_URL);
        this.hooks.navigation(this, this.url, 'committed');
        this.changed();
      }),
      s.on('Page.navigatedWithinDocument', ({ frameId, url }) => {
        if (frameId !== this.mainFrameId) return;
        this.navigations++;
        this.loading = false;
        this.lastCommit = { loaderId: '', complete: true };
        this.url = url.slice(0, MAX_URL);
        this.hooks.navigation(this, this.url, 'history_state');
        this.changed();
      }),
      s.on('Page.frameRequestedNavigation', ({ frameId }) => this.setLoading(frameId, true)),
      s.on('Page.frameStartedLoading', ({ frameId }) => this.setLoading(frameId, true)),
      s.on('Page.frameStoppedLoading', ({ frameId }) => this.setLoading(frameId, false)),
      s.on('Page.lifecycleEvent', ({ frameId, loaderId, name }) => {
        if (frameId !== this.mainFrameId) return;
        let names = this.lifecycle.get(loaderId);
        if (names === undefined || name === 'init') {
          names = new Set();
          this.lifecycle.set(loaderId, names);
          const oldest = this.lifecycle.keys().next().value;
          if (this.lifecycle.size > KEPT_LOADERS && oldest !== undefined) this.lifecycle.delete(oldest);
        }
        names.add(name);
        if (name === 'DOMContentLoaded') this.loading = false;
        this.changed();
      }),
      s.on('Page.javascriptDialogOpening', ({ type, message, defaultPrompt }) => {
        this.dialog = {
          type,
          message,
          ...(defaultPrompt === undefined || defaultPrompt === '' ? {} : { defaultPrompt }),
        };
        this.changed();
      }),
      s.on('Page.windowOpen', ({ url }) => {
        this.windowOpens++;
        this.lastWindowOpenUrl = url.slice(0, MAX_URL);
        this.changed();
      }),
      s.on('Page.javascriptDialogClosed', () => {
        this.dialog = undefined;
        this.changed();
      }),
      s.on('Runtime.executionContextCreated', ({ context }) => {
        if (context.name === WORLD_NAME && context.auxData?.frameId === this.mainFrameId)
          this.contextId = context.id;
      }),
      s.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
        if (executionContextId === this.contextId) this.contextId = undefined;
      }),
      s.on('Runtime.executionContextsCleared', () => {
        this.contextId = undefined;
      }),
      s.connection.onClose((reason) => this.markGone(`the browser connection closed (${reason})`)),
      ...LOGGED_EVENTS.map((event) => s.on(event, (params) => this.log.feed(event, params))),
    );
  }

  private setLoading(frameId: string, loading: boolean): void {
    if (frameId !== this.mainFrameId) return;
    this.loading = loading;
    this.changed();
  }
}
