/**
 * The sign of success after install: the first time this browser profile pairs with bproxy — through
 * the native host with nobody typing anything, or with a typed code — the worker opens the welcome page
 * (welcome.html) in a tab in front: paired, what to do next, and how to pin the icon (Chrome keeps a new
 * extension in the puzzle menu, and an extension cannot pin itself). Once per profile: the moment is
 * kept in chrome.storage.local, so a browser restart, a worker restart, a daemon restart or pairing
 * again never opens it a second time.
 */
import type { StorageArea } from '../chrome-api';
import { messageOf } from './driver/errors';
import type { WorkerLog } from './log';

export const WELCOMED_KEY = 'welcomedAt';
export const WELCOME_PAGE = 'welcome.html';

/** What the welcome needs of the platform. */
export interface WelcomeChrome {
  storage: { local: StorageArea };
  tabs: { create(props: { url: string; active: boolean }): Promise<unknown> };
}

export function welcomer(chrome: WelcomeChrome, log: WorkerLog, now: () => number): () => Promise<void> {
  // One at a time: two pairings that end together still open one page.
  let queue: Promise<void> = Promise.resolve();
  const once = async (): Promise<void> => {
    const got = await chrome.storage.local.get(WELCOMED_KEY);
    if (got[WELCOMED_KEY] !== undefined) return;
    await chrome.storage.local.set({ [WELCOMED_KEY]: now() });
    await chrome.tabs.create({ url: WELCOME_PAGE, active: true });
    log.info('welcome_opened', {});
  };
  return () => {
    queue = queue
      .then(once)
      .catch((error: unknown) => log.warn('welcome_failed', { error: messageOf(error) }));
    return queue;
  };
}
