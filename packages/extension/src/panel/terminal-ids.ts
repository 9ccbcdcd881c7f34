/**
 * Which terminal belongs to which tab, kept in chrome.storage.session (gone with the browser, as the
 * host's terminals are): a panel that opens again for a tab finds the terminal to reattach to. A
 * terminal id is a name, not a secret — only this extension can reach the host at all.
 */
interface SessionArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const storage = (): SessionArea =>
  (globalThis as unknown as { chrome: { storage: { session: SessionArea } } }).chrome.storage.session;

const keyOf = (tabId: number) => `terminal:${tabId}`;
const ID = /^term-[a-z0-9]{1,40}$/;

export async function terminalIdFor(tabId: number): Promise<string> {
  const key = keyOf(tabId);
  const stored = (await storage().get(key))[key];
  if (typeof stored === 'string' && ID.test(stored)) return stored;
  const fresh = `term-${tabId}t${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await storage().set({ [key]: fresh });
  return fresh;
}
