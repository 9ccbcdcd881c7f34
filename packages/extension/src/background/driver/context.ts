/**
 * What an action handler receives: the platform, the trackers, the page runner, and the call itself.
 * Handlers return the action's driver result or throw the kit's DriverFailure; the executor does the
 * rest (validation, deadlines, exactly-once, the answer envelope).
 */
import type {
  ActionHandler as KitActionHandler,
  HandlerCall,
  HandlerTable as KitHandlerTable,
  PointerRest,
  TabObserver,
} from '@bproxy/driver';
import type { ForwardedAction } from '@bproxy/protocol';
import type { NavGuard } from './nav-guard';
import type { ChromeApi, StorageArea } from '../../chrome-api';
import type { DialogTracker } from './dialog-tracker';
import type { DrivenTabs } from './driven-tabs';
import type { WorkerLog } from '../log';
import type { NavigationTracker } from './navigation-tracker';
import type { IdleDebugger } from './idle-debugger';
import type { OpenedTabs } from './opened-tabs';
import type { PageRunner } from './page-runner';

export interface DriverContext {
  chrome: ChromeApi;
  /** The site policy's stop for navigations to refused origins (absent in some unit tests). */
  guard?: NavGuard;
  session: StorageArea;
  log: WorkerLog;
  nav: NavigationTracker;
  dialogs: DialogTracker;
  page: PageRunner;
  tabs: DrivenTabs;
  /** Tabs the pages of driven tabs opened. */
  opened: OpenedTabs;
  /** The console and network logs of the driven tabs. */
  observer: TabObserver;
  /** Takes the debugger off driven tabs left idle, and puts it back before their next action. */
  idle: IdleDebugger;
  /** Where the trusted pointer rests in each tab (top-viewport CSS pixels); lost with the worker. */
  pointers: Map<number, PointerRest>;
  now: () => number;
  /** Width and height of an encoded image (createImageBitmap in the worker). */
  imageSize: (base64: string, mimeType: string) => Promise<{ width: number; height: number }>;
  /** How long an interaction waits for a navigation it may have started (link click, form submit). */
  navigationGraceMs: number;
}

/** What a handler learns about its request besides the params (the driver kit's call). */
export type ActionCall = HandlerCall;

/** One action's handler in this worker. */
export type ActionHandler<A extends ForwardedAction> = KitActionHandler<DriverContext, A>;

export type HandlerTable = KitHandlerTable<DriverContext>;

/** The raw tab id of a tab action (the executor refuses tab actions without one before they run). */
export function tabIdOf(call: ActionCall): number {
  if (call.tabId === null) throw new Error(`${call.action}: no target tab`);
  return call.tabId;
}
