/**
 * What a driver supplies to read and act inside cross-origin frames: running a page action in a frame
 * (null: the top document), keyboard focus at a point of a frame, and which frame fills a slot a read
 * answered. The CDP driver reaches frames through their targets and isolated worlds, the extension
 * through chrome.scripting's frame ids.
 */
import type { FrameSlot, PageAction } from '@bproxy/page';

export interface FramePages {
  /** A page action in `frame`'s document (the page script injected if needed); its data. */
  run(frame: string | null, action: PageAction, params: unknown): Promise<unknown>;
  /** focusAtPoint in `frame`'s document, the point in that frame's viewport. */
  focusAt(frame: string | null, point: { x: number; y: number }, caretToEnd: boolean): Promise<boolean>;
  /** The key of the frame behind `slot` of a read run in `parent`, or why it cannot be reached. */
  frameOf(parent: string | null, slot: FrameSlot): Promise<{ key: string } | { reason: string }>;
}
