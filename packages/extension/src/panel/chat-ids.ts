/**
 * Which chat belongs to which tab: an id per tab, kept in chrome.storage.session so that closing and
 * reopening the panel (or a restart of the worker) finds the tab's chat again, and forgotten with the
 * browser session — tab ids are reused after a restart, and a new tab must not show an old tab's chat.
 */
interface SessionStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const CHAT_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

function fresh(tabId: number): string {
  const random = crypto.getRandomValues(new Uint8Array(6));
  return `tab${tabId}-${[...random].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export async function chatIdFor(storage: SessionStorage, tabId: number): Promise<string> {
  const key = `chat.tab.${tabId}`;
  const stored = (await storage.get(key))[key];
  if (typeof stored === 'string' && CHAT_ID.test(stored)) return stored;
  const id = fresh(tabId);
  await storage.set({ [key]: id });
  return id;
}
