/**
 * Acting on elements inside cross-origin frames. A trusted press needs a point of the top viewport:
 * each frame on the way is scrolled into view in its parent (`frameBox`), its viewport's start added
 * up, and the element located in its own frame; keyboard focus is taken in that frame, at the point in
 * its own viewport. Page actions (fill, select, scroll, inspect, …) run in the frame itself. A frame
 * that is gone or navigated leaves the handle stale.
 */
import type { FrameBoxResult, PathPoint } from '@bproxy/page';
import type { ElementTarget } from '@bproxy/protocol';
import { DriverFailure, fail } from '../failure';
import { scrolledOf, type LocatedPoint, type TrustedPage } from '../input/trusted-actions';
import type { FramePages } from './frame-pages';
import { frameTarget, type FrameHop } from './frame-refs';

function pointOf(data: unknown, what: string): { x: number; y: number } {
  const d = data as Partial<FrameBoxResult> | null;
  if (d === null || typeof d !== 'object' || typeof d.x !== 'number' || typeof d.y !== 'number')
    fail('DRIVER_ERROR', `${what}: the page did not answer a point { x, y }`);
  return { x: d.x, y: d.y };
}

/** A frame that cannot be reached any more makes its handles stale, whatever the browser said. */
async function inFrame<T>(hop: FrameHop, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DriverFailure && error.error.code === 'ELEMENT_HANDLE_STALE') throw error;
    if (error instanceof DriverFailure && error.error.code === 'HUMAN_REQUIRED') throw error;
    if (error instanceof DriverFailure && error.error.code.startsWith('ELEMENT_')) throw error;
    // The frame answered: a secret refused for its origin is that refusal, not a stale handle.
    if (error instanceof DriverFailure && error.error.code === 'SECRET_ORIGIN_MISMATCH') throw error;
    const why = error instanceof DriverFailure ? error.error.message : String(error);
    fail(
      'ELEMENT_HANDLE_STALE',
      `the frame this element was read in is gone or navigated; read the page again (${why.slice(0, 200)})`,
    );
  }
}

/** Where the innermost frame's viewport starts in the top viewport, each frame scrolled into view. */
export async function framesOffset(pages: FramePages, hops: FrameHop[]): Promise<{ x: number; y: number }> {
  let x = 0;
  let y = 0;
  let parent: string | null = null;
  for (const hop of hops) {
    const from = parent;
    const box = pointOf(await pages.run(from, 'frameBox', { target: { ref: hop.owner } }), 'frameBox');
    x += box.x;
    y += box.y;
    parent = hop.frame;
  }
  return { x, y };
}

/**
 * A page action whose target lies in a frame, run in that frame with the frame's own target; null when
 * the target is the page's own (the caller runs it as usual).
 */
export async function runInFrame(
  pages: FramePages,
  action: Parameters<FramePages['run']>[1],
  params: { target?: ElementTarget },
): Promise<{ data: unknown } | null> {
  const framed = frameTarget(params.target);
  if (framed === null) return null;
  const last = framed.hops[framed.hops.length - 1];
  if (last === undefined) return null;
  const data = await inFrame(last, () => pages.run(last.frame, action, { ...params, target: framed.target }));
  return { data };
}

/**
 * `page` for targets inside frames: locate adds up the frames' offsets and locates in the frame; focus
 * is taken in the frame last located in. Targets of the page itself go to `page` as they are.
 */
export function framedTrustedPage(page: TrustedPage, pages: FramePages): TrustedPage {
  let focusFrame: { frame: string; offset: { x: number; y: number } } | null = null;
  return {
    input: page.input,
    rest: page.rest,
    checkHuman: () => page.checkHuman(),
    async locate(
      target: ElementTarget,
      enabled: boolean,
      at?: { x: number; y: number },
    ): Promise<LocatedPoint> {
      const framed = frameTarget(target);
      if (framed === null) {
        focusFrame = null;
        return page.locate(target, enabled, at);
      }
      const last = framed.hops[framed.hops.length - 1];
      if (last === undefined) return page.locate(target, enabled, at);
      await page.checkHuman();
      return inFrame(last, async () => {
        const offset = await framesOffset(pages, framed.hops);
        const data = await pages.run(last.frame, 'locate', {
          target: framed.target,
          enabled,
          ...(at === undefined ? {} : { at }),
        });
        const local = pointOf(data, 'locate');
        focusFrame = { frame: last.frame, offset };
        return { x: local.x + offset.x, y: local.y + offset.y, ...scrolledOf(data) };
      });
    },
    async focusAt(point: PathPoint, caretToEnd: boolean): Promise<boolean> {
      if (focusFrame === null) return page.focusAt(point, caretToEnd);
      const { frame, offset } = focusFrame;
      return pages.focusAt(frame, { x: point.x - offset.x, y: point.y - offset.y }, caretToEnd);
    },
  };
}
