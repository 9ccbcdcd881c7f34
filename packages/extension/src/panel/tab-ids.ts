/**
 * The ids the side panel keeps per tab (the tab's chat and its terminal), in
 * chrome.storage.session: closing and reopening the panel (or a restart of the worker) finds the tab's
 * chat and terminal again, and they are forgotten with the browser session — tab ids are reused after a restart, and
 * a new tab must not show an old tab's chat. An id is a name, not a secret: only this extension can
 * reach the host at all.
 */
export interface SessionStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

export interface TabIdKind {
  /** The storage key of a tab's id. */
  key(tabId: number): string;
  /** A stored value that is not a valid id (an older format, tampering) is replaced by a fresh one. */
  valid: RegExp;
  fresh(tabId: number): string;
}

/** The tab's id of this kind: the stored one, or a fresh one stored for next time. */
export async function idForTab(storage: SessionStorage, kind: TabIdKind, tabId: number): Promise<string> {
  const key = kind.key(tabId);
  const stored = (await storage.get(key))[key];
  if (typeof stored === 'string' && kind.valid.test(stored)) return stored;
  const id = kind.fresh(tabId);
  await storage.set({ [key]: id });
  return id;
}

const CHAT: TabIdKind = {
  key: (tabId) => `chat.tab.${tabId}`,
  valid: /^[A-Za-z0-9_.:-]{1,64}$/,
  fresh: (tabId) => {
    const random = crypto.getRandomValues(new Uint8Array(6));
    return `tab${tabId}-${[...random].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  },
};

export function chatIdFor(storage: SessionStorage, tabId: number): Promise<string> {
  return idForTab(storage, CHAT, tabId);
}

const TERMINAL: TabIdKind = {
  key: (tabId) => `terminal:${tabId}`,
  valid: /^term-[a-z0-9]{1,40}$/,
  fresh: (tabId) => `term-${tabId}t${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`,
};

export function terminalIdFor(storage: SessionStorage, tabId: number): Promise<string> {
  return idForTab(storage, TERMINAL, tabId);
}

/** The tab's terminal id when the panel ever opened one for it (none is made here). */
export async function storedTerminalId(storage: SessionStorage, tabId: number): Promise<string | null> {
  const key = TERMINAL.key(tabId);
  const stored = (await storage.get(key))[key];
  return typeof stored === 'string' && TERMINAL.valid.test(stored) ? stored : null;
}
