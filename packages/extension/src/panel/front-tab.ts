/**
 * Which tab a following panel serves: the tab in front of the panel's own window. A side panel belongs
 * to one window, so a tab switch in another window is not its business (each window's panel follows
 * its own); the window is asked for once, before the first query.
 */
export interface FrontTabApi {
  windows: { getCurrent(): Promise<{ id?: number }> };
  tabs: {
    query(q: { active: boolean; windowId: number }): Promise<{ id?: number }[]>;
    onActivated: { addListener(listener: (info: { tabId: number; windowId: number }) => void): void };
  };
}

/**
 * Calls `follow` with the front tab of the panel's window, then on each tab switch in that window.
 * Resolves once the first tab is known (rejects when the window or its tabs cannot be read).
 */
export async function followFrontTab(api: FrontTabApi, follow: (tabId: number) => void): Promise<void> {
  const { id: windowId } = await api.windows.getCurrent();
  if (windowId === undefined) throw new Error('the side panel has no window');
  // Listening before the query: a switch while it runs is not missed (the query's answer is older
  // than the switch, so it does not win over it).
  let switched = false;
  api.tabs.onActivated.addListener((info) => {
    if (info.windowId !== windowId) return;
    switched = true;
    follow(info.tabId);
  });
  const [front] = await api.tabs.query({ active: true, windowId });
  if (!switched && front?.id !== undefined) follow(front.id);
}
