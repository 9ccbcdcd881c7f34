/**
 * The driver's constructor: the trackers, the page runner, the executed-request table and the executor
 * over the handler table. It runs what the daemon link hands it and answers; of the links it knows only
 * the push target it is given (lint keeps background/daemon and background/host out of this folder).
 */
import { TabObserver } from '@bproxy/driver';
import type { ChromeApi } from '../../chrome-api';
import type { WorkerLog } from '../log';
import type { DriverContext } from './context';
import { DialogTracker } from './dialog-tracker';
import { DrivenTabs, type PushTarget } from './driven-tabs';
import { ExtensionDownloads } from './downloads';
import { FrameSessions } from './frame-sessions';
import { messageOf } from './errors';
import { DEFAULT_TABLE_OPTIONS, ExecutedTable } from './executed-table';
import { Executor } from './executor';
import { IdleDebugger } from './idle-debugger';
import { BackgroundFrames } from './background-frames';
import { NavigationTracker } from './navigation-tracker';
import { installObserver, observeAttached } from './observe-actions';
import { NavGuard } from './nav-guard';
import { OpenedTabs } from './opened-tabs';
import { PageRunner } from './page-runner';

export interface DriverOptions {
  chrome: ChromeApi;
  log: WorkerLog;
  now: () => number;
  imageSize: DriverContext['imageSize'];
}

export interface Driver {
  executor: Executor;
  /** The tabs bproxy drives. */
  tabs: DrivenTabs;
  /** The site policy's stop for navigations to refused origins (the daemon's nav_guard). */
  guard: NavGuard;
  /** Requests still running (for the popup's status). */
  inFlight(): number;
  /** The tabs the debugger is on now. */
  debuggerTabs(): number[];
  /** Wires the driver's platform listeners; `daemon` hears what the driver tells it unasked. */
  install(daemon: PushTarget): void;
  /** The daemon let go of a tab: it is no longer driven, and the debugger leaves it. */
  release(tabId: number): void;
  /** The daemon's word on how long an idle driven tab keeps the debugger (null: for as long as driven). */
  setDebuggerIdle(idleMs: number | null): void;
  /** The daemon's download cap (null: the default). */
  setDownloadCap(maxBytes: number | null): void;
}

export function createDriver({ chrome, log, now, imageSize }: DriverOptions): Driver {
  const nav = new NavigationTracker();
  const dialogs = new DialogTracker(chrome, chrome.storage.session, log);
  const tabs = new DrivenTabs(chrome.storage.session, log);
  const opened = new OpenedTabs(tabs);
  const guard = new NavGuard(chrome, tabs, log);
  const observer = new TabObserver(undefined, now);
  const frames = new BackgroundFrames(chrome, dialogs, log);
  const frameSessions = new FrameSessions(chrome, log);
  dialogs.afterAttach = async (tabId) => {
    await frameSessions.attachFrames(tabId);
    await observeAttached(chrome, observer, tabId);
    await frames.keep(tabId);
  };
  const idle = new IdleDebugger(dialogs, (tabId) => tabs.has(tabId), log);
  const downloads = new ExtensionDownloads(chrome, (tabId) => tabs.has(tabId), idle, now, log);
  const ctx: DriverContext = {
    chrome,
    guard,
    session: chrome.storage.session,
    log,
    nav,
    dialogs,
    page: new PageRunner(chrome),
    tabs,
    opened,
    observer,
    idle,
    pointers: new Map(),
    now,
    imageSize,
    navigationGraceMs: 150,
  };
  const table = new ExecutedTable(chrome.storage.session, { ...DEFAULT_TABLE_OPTIONS, now }, (error) =>
    log.warn('executed_table_storage_failed', { error: messageOf(error) }),
  );
  return {
    executor: new Executor(ctx, table),
    tabs,
    guard,
    inFlight: () => table.inFlightCount,
    debuggerTabs: () => dialogs.attachedTabs(),
    install(daemon) {
      nav.install(chrome);
      dialogs.install();
      frames.install();
      frameSessions.install();
      opened.install(chrome, daemon);
      guard.install(daemon);
      installObserver(chrome, tabs, observer);
      downloads.install(daemon);
    },
    release(tabId) {
      tabs.delete(tabId);
      observer.release(tabId);
      idle.forget(tabId);
      void dialogs.detach(tabId);
    },
    setDebuggerIdle: (idleMs) => idle.setPeriod(idleMs),
    setDownloadCap: (maxBytes) => downloads.setCap(maxBytes),
  };
}
