/**
 * The side panel's per-tab ids in a fake chrome.storage.session: a tab keeps its id across lookups (a
 * reopened panel finds its chat), tabs get different ids, and a stored value that is not a valid id
 * is replaced rather than used.
 */
import { describe, expect, it } from 'vitest';
import { chatIdFor, terminalIdFor } from '../../src/panel/tab-ids';

function sessionStorage(initial: Record<string, unknown> = {}) {
  const items: Record<string, unknown> = { ...initial };
  return {
    items,
    get: async (key: string) => (key in items ? { [key]: items[key] } : {}),
    set: async (more: Record<string, unknown>) => void Object.assign(items, more),
  };
}

describe("a tab's chat id", () => {
  it('is kept for the tab, and differs between tabs', async () => {
    const storage = sessionStorage();
    const first = await chatIdFor(storage, 7);
    expect(first).toMatch(/^tab7-[0-9a-f]{12}$/);
    expect(await chatIdFor(storage, 7)).toBe(first);
    expect(await chatIdFor(storage, 8)).not.toBe(first);
    expect(storage.items['chat.tab.7']).toBe(first);
  });

  it('replaces a stored value that is not a valid id', async () => {
    const storage = sessionStorage({ 'chat.tab.7': '<script>' });
    const id = await chatIdFor(storage, 7);
    expect(id).toMatch(/^tab7-/);
    expect(storage.items['chat.tab.7']).toBe(id);
  });
});

describe("a tab's terminal id", () => {
  it('is kept for the tab apart from its chat, and a stored value that is not one is replaced', async () => {
    const storage = sessionStorage({ 'terminal:7': 'term-../../x' });
    const id = await terminalIdFor(storage, 7);
    expect(id).toMatch(/^term-7t[0-9a-f]{12}$/);
    expect(await terminalIdFor(storage, 7)).toBe(id);
    expect(await chatIdFor(storage, 7)).not.toBe(id);
  });
});
