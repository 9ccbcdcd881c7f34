/**
 * Refs of elements inside cross-origin frames. The page script of each frame mints its own refs
 * (`r123`); a driver that read a frame names its elements by the path to them: for each frame on the
 * way, the frame element's ref in its parent and the driver's key of the frame (`r45@KEY:r123`, nested
 * `r45@K1:r9@K2:r123`). The daemon keeps such a ref like any other; the driver follows the path.
 * A frame that navigated has a new document whose page script never issued the ref: stale, as on a page.
 */
import type { ElementTarget } from '@bproxy/protocol';
import { fail } from '../failure';

/** One hop into a frame: the frame element's ref in the parent document, and the driver's frame key. */
export interface FrameHop {
  readonly owner: string;
  readonly frame: string;
}

const KEY = /^[A-Za-z0-9_-]{1,64}$/;
const LOCAL = /^r\d{1,9}$/;
/** Frames within frames followed at most (the protocol's ref pattern allows as many hops). */
export const MAX_FRAME_DEPTH = 4;

/** Whether a driver's frame key can stand in a frame ref (CDP frame ids, the extension's numbers). */
export function isFrameKey(key: string): boolean {
  return KEY.test(key);
}

/** `ref` of an element found in the frame reached through `hop`, as the parent document names it. */
export function qualifyRef(hop: FrameHop, ref: string): string {
  return `${hop.owner}@${hop.frame}:${ref}`;
}

/** The frames on the way to a ref and its ref in the innermost one; null for a ref of the page itself. */
export function parseFrameRef(ref: string): { hops: FrameHop[]; local: string } | null {
  if (!ref.includes('@')) return null;
  const parts = ref.split(':');
  const local = parts.pop() ?? '';
  const hops: FrameHop[] = [];
  for (const part of parts) {
    const [owner = '', frame = '', extra] = part.split('@');
    if (extra !== undefined || !LOCAL.test(owner) || !KEY.test(frame)) return bad(ref);
    hops.push({ owner, frame });
  }
  if (hops.length === 0 || !LOCAL.test(local)) return bad(ref);
  return { hops, local };
}

function bad(ref: string): never {
  fail('ELEMENT_HANDLE_STALE', `element ref ${ref.slice(0, 200)} names no element of this page`);
}

/** A forwarded target inside a frame: the path, and the target as that frame's page script knows it. */
export function frameTarget(
  target: ElementTarget | undefined,
): { hops: FrameHop[]; target: ElementTarget } | null {
  if (target?.ref === undefined) return null;
  const parsed = parseFrameRef(target.ref);
  if (parsed === null) return null;
  return {
    hops: parsed.hops,
    target: { ref: parsed.local, ...(target.selector === undefined ? {} : { selector: target.selector }) },
  };
}
