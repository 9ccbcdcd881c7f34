/**
 * Who may command the worker: only the extension's own pages. `sender.id` alone is not enough — a
 * content script (the page script the worker injects into every driven tab) carries the same id, and
 * a compromised renderer of a driven page could then open the Terminal or hand tabs around. An
 * extension page is told apart by its URL: its origin is the extension's own and its path is one of
 * the pages that talk to the worker.
 */
import type { MessageSender } from '../chrome-api';

export function fromOwnPage(
  sender: MessageSender | undefined,
  extensionId: string,
  pages: readonly string[],
): boolean {
  if (sender?.id !== extensionId || sender.url === undefined) return false;
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return false;
  }
  return url.protocol === 'chrome-extension:' && url.host === extensionId && pages.includes(url.pathname);
}

/**
 * An extension page loaded in a tab bproxy drives: an agent got it there (a navigation that slipped
 * past the URL checks), so it is not the user's panel or popup and must not act for `?tab=ID`. The
 * real side panel and the toolbar popup live in no tab at all; a panel opened as a page in a tab of
 * the user's own (as the tests do) is still the user's.
 */
export function inDrivenTab(
  sender: MessageSender | undefined,
  isDriven: (tabId: number) => boolean,
): boolean {
  const tabId = sender?.tab?.id;
  return tabId !== undefined && isDriven(tabId);
}
