/**
 * The driver kit's FramePages for a tab of the user's Chrome: the page script runs in each frame
 * through chrome.scripting's frame ids (host permissions cover every http(s) frame, out-of-process ones
 * included). Which frame fills a slot is learned from the frames themselves: each child frame of the
 * parent (chrome.webNavigation.getAllFrames) posts a random token to its parent, whose page script
 * answers which frame element's window sent it (@bproxy/page frame-probe). A frame id stays the same
 * when the frame navigates; its new document has a new page script, so refs read before are stale.
 */
import { focusAtPoint, type FramePages } from '@bproxy/driver';
import { postFrameProbe } from '@bproxy/page';
import type { ChromeApi } from '../../chrome-api';
import type { PageCall, PageRunner } from './page-runner';

/** How long the parent waits for its frames' tokens. */
const PROBE_MS = 1000;

function token(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function extensionFramePages(
  chrome: ChromeApi,
  page: PageRunner,
  tabId: number,
  top: Omit<PageCall, 'action' | 'params'> = {},
): FramePages {
  const frameIdOf = (frame: string | null): number => (frame === null ? 0 : Number(frame));
  /** Per parent frame: the child frame id behind each frame element's ref, and why children failed. */
  const probed = new Map<number, Promise<{ byRef: Map<string, number>; failed: string[] }>>();

  const probe = async (parent: number): Promise<{ byRef: Map<string, number>; failed: string[] }> => {
    const frames = (await chrome.webNavigation.getAllFrames?.({ tabId })) ?? [];
    const children = frames.filter((f) => f.parentFrameId === parent && f.frameId !== parent);
    const sent = new Map<string, number>();
    const failed: string[] = [];
    for (const child of children) {
      const t = token();
      try {
        await chrome.scripting.executeScript({
          target: { tabId, frameIds: [child.frameId] },
          func: postFrameProbe,
          args: [t],
        });
        sent.set(t, child.frameId);
      } catch (error) {
        failed.push(error instanceof Error ? error.message : String(error));
      }
    }
    const byRef = new Map<string, number>();
    if (sent.size === 0) return { byRef, failed };
    const answer = (await page.run(tabId, {
      action: 'frameProbe',
      params: { tokens: [...sent.keys()], timeoutMs: PROBE_MS },
      frameId: parent,
    })) as Record<string, unknown> | null;
    for (const [t, frameId] of sent) {
      const ref = answer?.[t];
      if (typeof ref === 'string') byRef.set(ref, frameId);
    }
    return { byRef, failed };
  };

  return {
    run: (frame, action, params) =>
      frame === null
        ? page.run(tabId, { ...top, action, params })
        : page.run(tabId, { action, params, frameId: frameIdOf(frame) }),
    focusAt: async (frame, point, caretToEnd) => {
      const args: [number, number, boolean] = [point.x, point.y, caretToEnd];
      return (await page.callFunction(tabId, focusAtPoint, args, 'focus', frameIdOf(frame))) === true;
    },
    async frameOf(parent, slot) {
      const id = frameIdOf(parent);
      let found = probed.get(id);
      if (found === undefined) {
        found = probe(id);
        probed.set(id, found);
      }
      const { byRef, failed } = await found;
      const frameId = byRef.get(slot.ref);
      if (frameId !== undefined) return { key: String(frameId) };
      const why = failed.length === 1 ? `: ${failed[0]?.slice(0, 200) ?? ''}` : '';
      return { reason: `the extension could not reach the frame (sandboxed, refused or not loaded)${why}` };
    },
  };
}
