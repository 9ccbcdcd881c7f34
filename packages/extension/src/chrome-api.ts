/**
 * The slice of the extension platform (`chrome.*`) that bproxy uses, typed by hand. Everything in the
 * extension receives this object instead of reading the global, so that unit tests can hand in a fake
 * that implements exactly these members and the type checker keeps the fake honest.
 */

export interface ChromeEvent<F extends (...args: never[]) => unknown> {
  addListener(listener: F): void;
  removeListener(listener: F): void;
}

export interface StorageArea {
  get(keys: string | string[] | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

export interface Tab {
  id?: number;
  windowId: number;
  url?: string;
  pendingUrl?: string;
  title?: string;
  pinned: boolean;
  active: boolean;
  status?: string;
  /** The tab whose page opened this one (a link, window.open). */
  openerTabId?: number;
}

/** One declarativeNetRequest session rule (the site policy's guard, nav-guard.ts): only what it sets. */
export interface DnrRule {
  id: number;
  priority: number;
  action: { type: 'block' | 'allow' };
  condition: { regexFilter: string; resourceTypes: 'main_frame'[]; excludedTabIds?: number[] };
}

export interface TabGroup {
  id: number;
  title?: string;
}

export interface InjectionResult {
  frameId: number;
  result?: unknown;
}

export interface ScriptInjection {
  target: { tabId: number; frameIds?: number[] };
  files?: string[];
  func?: (...args: never[]) => unknown;
  args?: unknown[];
  world?: 'ISOLATED' | 'MAIN';
}

export interface NavDetails {
  tabId: number;
  frameId: number;
  url: string;
  timeStamp?: number;
}
export interface FrameDetails {
  frameId: number;
  parentFrameId: number;
  url: string;
}
export interface NavErrorDetails extends NavDetails {
  error: string;
}
/** A page opened a tab (a target=_blank link, window.open, a middle click). */
export interface NavTargetDetails {
  sourceTabId: number;
  sourceFrameId: number;
  tabId: number;
  url: string;
}

export interface DebuggeeTarget {
  tabId?: number;
  /** A child target's flat session on the tab's debugger (Target.setAutoAttach with flatten). */
  sessionId?: string;
}

export interface MessageSender {
  id?: string;
  url?: string;
  tab?: Tab;
}

/** A chrome.runtime.Port: to the native host, or between the worker and an extension page. */
export interface PortLike {
  readonly name: string;
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: ChromeEvent<(message: unknown) => void>;
  onDisconnect: ChromeEvent<() => void>;
  /** Set by Chrome on a port from another part of the extension. */
  readonly sender?: MessageSender;
}

/** One download in Chrome's list (chrome.downloads.DownloadItem, the fields bproxy reads). */
export interface DownloadItem {
  id: number;
  url: string;
  finalUrl?: string;
  /** Its absolute path once Chrome decided it; the suggested name while it decides. */
  filename: string;
  totalBytes: number;
  bytesReceived: number;
  state: 'in_progress' | 'interrupted' | 'complete';
}

export interface DownloadDelta {
  id: number;
  filename?: { current?: string };
  state?: { current?: string };
}

export interface FilenameSuggestion {
  /** Relative to the user's Downloads folder. */
  filename: string;
  conflictAction?: 'uniquify' | 'overwrite' | 'prompt';
}

export interface ChromeApi {
  runtime: {
    id: string;
    getManifest(): { version: string };
    /** Starts the native host and opens a port to it (one process per port). */
    connectNative(application: string): PortLike;
    /** Why the last callback-style call or port failed ("Specified native messaging host not found."). */
    readonly lastError?: { message?: string } | undefined;
    onConnect: ChromeEvent<(port: PortLike) => void>;
    onStartup: ChromeEvent<() => void>;
    onInstalled: ChromeEvent<() => void>;
    onMessage: ChromeEvent<
      (
        message: unknown,
        sender: MessageSender,
        sendResponse: (response: unknown) => void,
      ) => boolean | undefined
    >;
  };
  storage: { local: StorageArea; session: StorageArea };
  alarms: {
    create(name: string, info: { periodInMinutes: number; delayInMinutes?: number }): Promise<void> | void;
    onAlarm: ChromeEvent<(alarm: { name: string }) => void>;
  };
  tabs: {
    create(props: { url?: string; active?: boolean }): Promise<Tab>;
    get(tabId: number): Promise<Tab>;
    update(
      tabId: number,
      props: { url?: string; pinned?: boolean; active?: boolean },
    ): Promise<Tab | undefined>;
    remove(tabId: number): Promise<void>;
    goBack(tabId: number): Promise<void>;
    goForward(tabId: number): Promise<void>;
    reload(tabId: number, props?: { bypassCache?: boolean }): Promise<void>;
    captureVisibleTab(
      windowId: number,
      options: { format?: 'png' | 'jpeg'; quality?: number },
    ): Promise<string>;
    onRemoved: ChromeEvent<(tabId: number) => void>;
    /** The user (or bproxy) brought a tab to the front of its window; optional in the fakes tests use. */
    onActivated?: ChromeEvent<(info: { tabId: number; windowId: number }) => void>;
    /** Optional in the fakes tests use (the site policy's guard). */
    onCreated?: ChromeEvent<(tab: Tab) => void>;
    /** The tabs of one tab group. */
    query(q: { groupId: number } | Record<string, never>): Promise<Tab[]>;
    /** Puts tabs into a group (a new one unless groupId is given); answers the group's id. */
    group(options: { tabIds: number[]; groupId?: number }): Promise<number>;
    ungroup(tabIds: number[]): Promise<void>;
  };
  tabGroups: {
    /** Every tab group of every window (saved groups Chrome brought back included). */
    query(q: Record<string, never>): Promise<TabGroup[]>;
    onCreated: ChromeEvent<(group: TabGroup) => void>;
    onUpdated: ChromeEvent<(group: TabGroup) => void>;
    update(
      groupId: number,
      props: { title?: string; color?: 'blue' | 'orange' | 'grey'; collapsed?: boolean },
    ): Promise<unknown>;
  };
  action: {
    setBadgeText(details: { text: string }): Promise<void>;
    setBadgeBackgroundColor(details: { color: string }): Promise<void>;
    setTitle(details: { title: string }): Promise<void>;
  };
  windows: {
    update(windowId: number, props: { focused?: boolean }): Promise<unknown>;
  };
  /** The site policy's guard (nav-guard.ts); optional in the fakes tests use. */
  declarativeNetRequest?: {
    getSessionRules(): Promise<DnrRule[]>;
    updateSessionRules(options: { removeRuleIds?: number[]; addRules?: DnrRule[] }): Promise<void>;
  };
  webNavigation: {
    onBeforeNavigate: ChromeEvent<(details: NavDetails) => void>;
    onCommitted: ChromeEvent<(details: NavDetails) => void>;
    onDOMContentLoaded: ChromeEvent<(details: NavDetails) => void>;
    onCompleted: ChromeEvent<(details: NavDetails) => void>;
    onErrorOccurred: ChromeEvent<(details: NavErrorDetails) => void>;
    onHistoryStateUpdated: ChromeEvent<(details: NavDetails) => void>;
    onReferenceFragmentUpdated: ChromeEvent<(details: NavDetails) => void>;
    onCreatedNavigationTarget: ChromeEvent<(details: NavTargetDetails) => void>;
    /** The frames of a tab (cross-origin frame reads); optional in the fakes tests use. */
    getAllFrames?(details: { tabId: number }): Promise<FrameDetails[] | null>;
  };
  scripting: {
    executeScript(injection: ScriptInjection): Promise<InjectionResult[]>;
  };
  /** Absent in the fakes tests use and where the permission is missing. */
  downloads?: {
    onCreated: ChromeEvent<(item: DownloadItem) => void>;
    onDeterminingFilename: ChromeEvent<
      (item: DownloadItem, suggest: (suggestion?: FilenameSuggestion) => void) => boolean | undefined
    >;
    onChanged: ChromeEvent<(delta: DownloadDelta) => void>;
    cancel(id: number): Promise<void>;
    erase(query: { id: number }): Promise<number[]>;
    search(query: { id: number }): Promise<DownloadItem[]>;
  };
  debugger: {
    attach(target: DebuggeeTarget, version: string): Promise<void>;
    detach(target: DebuggeeTarget): Promise<void>;
    sendCommand(target: DebuggeeTarget, method: string, params?: Record<string, unknown>): Promise<unknown>;
    onEvent: ChromeEvent<(source: DebuggeeTarget, method: string, params?: unknown) => void>;
    onDetach: ChromeEvent<(source: DebuggeeTarget, reason: string) => void>;
  };
}

/** The platform object of the running extension. */
export function platformChrome(): ChromeApi {
  const value = (globalThis as { chrome?: unknown }).chrome;
  if (value === undefined)
    throw new Error('chrome.* is not available: this code runs only inside the extension');
  return value as ChromeApi;
}
