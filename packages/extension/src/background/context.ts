/**
 * What an action handler receives: the platform, the trackers, the page runner, and the call itself.
 * Handlers return the action's driver result or throw DriverFailure; the executor does the rest
 * (validation, deadlines, exactly-once, the answer envelope).
 */
import type { ActionName, BproxyForwardedRequest } from '@bproxy/protocol';
import type { ChromeApi, StorageArea } from '../chrome-api';
import type { DialogTracker } from './dialog-tracker';
import type { DrivenTabs } from './driven-tabs';
import type { WorkerLog } from './log';
import type { NavigationTracker } from './navigation-tracker';
import type { PageRunner } from './page-runner';

export interface DriverContext {
  chrome: ChromeApi;
  session: StorageArea;
  log: WorkerLog;
  nav: NavigationTracker;
  dialogs: DialogTracker;
  page: PageRunner;
  tabs: DrivenTabs;
  now: () => number;
  /** Width and height of an encoded image (createImageBitmap in the worker). */
  imageSize: (base64: string, mimeType: string) => Promise<{ width: number; height: number }>;
  /** How long an interaction waits for a navigation it may have started (link click, form submit). */
  navigationGraceMs: number;
}

export interface ActionCall {
  request: BproxyForwardedRequest;
  action: ActionName;
  /** The forwarded params, already validated against the action's schema. */
  params: Record<string, unknown>;
  /** target.tabId, or null for browser-level actions (tab.open, debug.log). */
  tabId: number | null;
  deadline: number;
  /** A previous worker life marked this request as started and died before answering. */
  resumed: boolean;
}

export interface ActionHandler {
  run(ctx: DriverContext, call: ActionCall): Promise<unknown>;
  /** Needs target.tabId. */
  needsTab: boolean;
  /** Safe to run again when a previous worker life may have started it (see executed-table.ts). */
  resumable: boolean;
}

/** The raw tab id of a tab action (the executor refuses tab actions without one before they run). */
export function tabIdOf(call: ActionCall): number {
  if (call.tabId === null) throw new Error(`${call.action}: no target tab`);
  return call.tabId;
}
