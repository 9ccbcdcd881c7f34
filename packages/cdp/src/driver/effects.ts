/**
 * What an action did besides its own result: whether the tab navigated, whether a JavaScript dialog
 * opened, which tabs its page opened, and whether the page closed its own tab meanwhile. A dialog
 * blocks the renderer, so the CDP call that caused it would not answer until someone handles the
 * dialog: we race every action against the dialog and answer as soon as it opens.
 */
import { DriverFailure, fail } from '@bproxy/driver';
import { failIfHuman } from './human';
import { openedSince, type OpenedMark } from './opened-tabs';
import { TabGoneError, type OpenDialog, type PageTab } from './page-tab';

export interface Effects {
  url: string;
  title: string;
  navigated: boolean;
  dialog?: { type: string; message: string };
  openedTabs?: { tabId: number; url: string }[];
}

/** How long an action waits for a navigation it started to reach DOMContentLoaded before answering. */
const SETTLE_CAP_MS = 5_000;
/** How long a failed call waits for the browser to say the tab closed, before it counts as a failure. */
const CLOSE_GRACE_MS = 1_000;

export type Raced<T> = { value: T; dialog?: undefined } | { dialog: OpenDialog };

export async function raceDialog<T>(tab: PageTab, work: Promise<T>, timeoutMs: number): Promise<Raced<T>> {
  // The work may settle long after we answered (once the dialog is handled): never let it go unhandled.
  work.catch(() => undefined);
  const watch = tab.waitUntil(() => tab.dialog, timeoutMs, 'dialog watch');
  watch.promise.catch(() => undefined);
  try {
    return await Promise.race([
      work.then((value) => ({ value })),
      watch.promise.then((dialog) => ({ dialog })),
    ]);
  } finally {
    watch.cancel();
  }
}

/** For actions whose result has no place for a dialog: a dialog opening mid-action is DIALOG_OPEN. */
export async function failOnDialog<T>(tab: PageTab, work: Promise<T>, timeoutMs: number): Promise<T> {
  const raced = await raceDialog(tab, work, timeoutMs);
  if (raced.dialog !== undefined) dialogOpen(raced.dialog);
  return raced.value;
}

export function dialogOpen(dialog: OpenDialog): never {
  fail('DIALOG_OPEN', `a ${dialog.type} dialog is open: "${dialog.message.slice(0, 200)}"`, {
    details: { dialog: { type: dialog.type, message: dialog.message } },
  });
}

export async function pageState(tab: PageTab, timeoutMs: number): Promise<{ url: string; title: string }> {
  // Browser-side: answers even while a dialog blocks the page.
  const { targetInfo } = await tab.session.connection.send(
    'Target.getTargetInfo',
    { targetId: tab.targetId },
    { timeoutMs },
  );
  return { url: targetInfo.url, title: targetInfo.title };
}

/** Runs an interaction and reports its effects; a navigation it caused is followed to DOMContentLoaded. */
export async function withEffects<T>(
  tab: PageTab,
  work: () => Promise<T>,
  timeoutMs: number,
): Promise<{ effects: Effects; value?: T }> {
  const started = Date.now();
  const left = (): number => Math.max(1, timeoutMs - (Date.now() - started));
  const since: OpenedMark = { opened: tab.opened.length, windowOpens: tab.windowOpens };
  try {
    return await effectsOf(tab, work, left, since);
  } catch (error) {
    if (!(await closedUnder(tab, error, left()))) throw error;
    // The page closed its own tab (a sign-in window when it is done): the action did what it was
    // asked. The daemon heard of the close before this answer and tells the agent where it is now.
    return { effects: { url: tab.url, title: '', navigated: false } };
  }
}

async function effectsOf<T>(
  tab: PageTab,
  work: () => Promise<T>,
  left: () => number,
  since: OpenedMark,
): Promise<{ effects: Effects; value?: T }> {
  const before = tab.navigations;
  const raced = await raceDialog(tab, work(), left());
  let dialog = raced.dialog;
  if (dialog === undefined) await flushRenderer(tab, left());
  dialog ??= tab.dialog;
  if (dialog === undefined && tab.loading) {
    const settled = tab.waitUntil(
      () => (!tab.loading ? true : tab.dialog !== undefined ? true : undefined),
      Math.min(left(), SETTLE_CAP_MS),
      'settle',
    );
    await settled.promise.catch(() => undefined);
    dialog = tab.dialog;
  }
  const navigated = tab.navigations !== before;
  if (navigated && dialog === undefined) await failIfHuman(tab, left());
  const opened = await openedSince(tab, since, left());
  const state = await pageState(tab, left());
  const effects: Effects = { ...state, navigated };
  if (dialog !== undefined) effects.dialog = { type: dialog.type, message: dialog.message };
  if (opened.length > 0) effects.openedTabs = opened;
  return raced.dialog === undefined ? { effects, value: raced.value } : { effects };
}

/**
 * Whether `tab` went away under the action — a page that closed itself —, which makes the failure of a
 * call on it no failure of the action. The error may come before the browser says the target is gone.
 */
async function closedUnder(tab: PageTab, error: unknown, timeoutMs: number): Promise<boolean> {
  if (error instanceof DriverFailure) return false;
  const gone = tab.waitUntil(() => undefined, Math.min(timeoutMs, CLOSE_GRACE_MS), 'the tab closing');
  return gone.promise.then(
    () => false,
    (reason: unknown) => reason instanceof TabGoneError,
  );
}

/**
 * A link click or a form submit asks for its navigation from a task the renderer runs after the input
 * event was acknowledged. One renderer round trip that waits a macrotask lets those tasks run, and the
 * renderer's events reach us in order before its answer does: then `tab.loading` is up to date.
 */
async function flushRenderer(tab: PageTab, timeoutMs: number): Promise<void> {
  const flush = tab.session.send(
    'Runtime.evaluate',
    {
      expression: '0',
      ...(tab.contextId === undefined ? {} : { contextId: tab.contextId }),
    },
    Math.min(timeoutMs, 2_000),
  );
  // The page may navigate away (context destroyed) or open a dialog meanwhile: both are fine here.
  await raceDialog(tab, flush, timeoutMs).catch(() => undefined);
}
