/**
 * click, hover, type and press as trusted input, the same in both drivers: where the element is (the
 * page's `locate`), keyboard focus for keys, the pointer's journey and the presses. A driver supplies
 * the tab (TrustedPage: its input channel and its way of calling the page) and wraps `act` in its own
 * watch for effects (a navigation, a dialog, a tab opened).
 */
import type { PathPoint } from '@bproxy/page';
import type { ElementTarget, ForwardedParams } from '@bproxy/protocol';
import { fail } from '../failure';
import {
  approach,
  mouseClick,
  mouseMove,
  pressCombo,
  typeText,
  type InputSender,
  type PointerRest,
} from './input-events';
import { parseCombo } from './keys';
import { dragGesture, dropFiles, type DragEnds } from './drag';

export type TrustedAction = 'click' | 'hover' | 'type' | 'press' | 'drag' | 'drop';

/** One of the four actions with its forwarded params. */
export type TrustedCall = {
  [A in TrustedAction]: { readonly action: A; readonly params: ForwardedParams<A> };
}[TrustedAction];

/** A point `locate` answered, and whether bringing its element into view scrolled the page. */
export interface LocatedPoint extends PathPoint {
  readonly scrolled?: boolean;
}

/** `scrolled` of a page's `locate` answer, when it says. */
export const scrolledOf = (data: unknown): { scrolled?: boolean } => {
  const scrolled = (data as { scrolled?: unknown } | null)?.scrolled;
  return typeof scrolled === 'boolean' ? { scrolled } : {};
};

/** What trusted input needs from a tab, each driver its own way. */
export interface TrustedPage {
  readonly input: InputSender;
  /** Where the pointer rests in this tab (top-viewport CSS pixels). */
  readonly rest: PointerRest;
  /**
   * The page's `locate`, the human check first: `target` scrolled into view and checked, and the point
   * to press, in top-viewport CSS pixels. `enabled: false` lets a disabled element through (hovering one
   * is fine; pressing one is not).
   */
  locate(target: ElementTarget, enabled: boolean, at?: { x: number; y: number }): Promise<LocatedPoint>;
  /** focusAtPoint (focus-at.ts) run in the page. */
  focusAt(point: PathPoint, caretToEnd: boolean): Promise<boolean>;
  /** The human check alone, for keys sent to whatever has the focus. */
  checkHuman(): Promise<void>;
}

export interface TrustedSteps {
  /** The element found, checked and (for keys) focused, the human check run: no input yet. */
  prepare(): Promise<void>;
  /** The input itself, whose effects the driver watches. */
  act(): Promise<void>;
}

/** The forwarded schemas type a required target as optional (a protocol typing limit): check it here. */
export function requireTarget(target: ElementTarget | undefined, action: string): ElementTarget {
  if (target === undefined) fail('BAD_REQUEST', `params.target: ${action} needs an element`);
  return target;
}

async function focus(page: TrustedPage, target: ElementTarget, caretToEnd: boolean): Promise<void> {
  const point = await page.locate(target, true);
  if (!(await page.focusAt(point, caretToEnd)))
    fail('ELEMENT_NOT_INTERACTABLE', 'the element could not take the keyboard focus');
}

function clickSteps(page: TrustedPage, params: ForwardedParams<'click'>): TrustedSteps {
  const target = requireTarget(params.target, 'click');
  return clickTarget(page, target, { button: params.button ?? 'left', clickCount: params.clickCount ?? 1 });
}

/** A click on `target` as a person makes it (upload opens a file chooser this way too). */
export function clickTarget(
  page: TrustedPage,
  target: ElementTarget,
  options: { readonly button: 'left' | 'middle' | 'right'; readonly clickCount: number } = {
    button: 'left',
    clickCount: 1,
  },
): TrustedSteps {
  let point: PathPoint | undefined;
  return {
    async prepare() {
      point = await page.locate(target, true);
    },
    async act() {
      const to = point ?? (await page.locate(target, true));
      // One quick stroke rather than a move per frame: only the frame it takes is waited for.
      const { end, travelled } = await approach(page.input, page.rest, to, false);
      // The page may change under a moving pointer (a hover menu opening over the target): check
      // the target again before pressing, and follow it if it moved.
      const again = travelled ? await page.locate(target, true) : to;
      const moved = again.x !== to.x || again.y !== to.y;
      await mouseClick(page.input, page.rest, moved ? again : end, options);
    },
  };
}

function hoverSteps(page: TrustedPage, params: ForwardedParams<'hover'>): TrustedSteps {
  const target = requireTarget(params.target, 'hover');
  let point: PathPoint | undefined;
  return {
    async prepare() {
      point = await page.locate(target, false);
    },
    async act() {
      await mouseMove(page.input, page.rest, point ?? (await page.locate(target, false)));
    },
  };
}

function typeSteps(page: TrustedPage, params: ForwardedParams<'type'>): TrustedSteps {
  return {
    prepare: () => (params.target === undefined ? page.checkHuman() : focus(page, params.target, true)),
    act: () => typeText(page.input, params.text),
  };
}

function pressSteps(page: TrustedPage, params: ForwardedParams<'press'>): TrustedSteps {
  const combo = parseCombo(params.key);
  if (combo === undefined) {
    fail(
      'BAD_REQUEST',
      `params.key: unknown key "${params.key}"; use a key like Enter, Tab, Escape, ArrowDown, a or Control+A`,
    );
  }
  return {
    prepare: () => (params.target === undefined ? page.checkHuman() : focus(page, params.target, false)),
    act: () => pressCombo(page.input, combo),
  };
}

/** Rounds of locating both ends of a drag before giving up on a scroll that shows them together. */
const LOCATE_ROUNDS = 3;

/**
 * Both ends of a drag, as points of one and the same scroll position. Locating an element scrolls it
 * into view when part of it is cut off, and that scroll moves the other end: a point located before it
 * is stale (the press then lands on whatever took its place, and an HTML5 drag never starts). So the
 * element is located again until locating the drop target after it scrolls nothing.
 */
async function locateEnds(
  page: TrustedPage,
  from: ElementTarget,
  onto: ElementTarget,
  at: { x: number; y: number } | undefined,
): Promise<DragEnds> {
  for (let round = 0; round < LOCATE_ROUNDS; round++) {
    const start = await page.locate(from, true);
    const end = await page.locate(onto, false, at);
    if (end.scrolled !== true) return { from: { x: start.x, y: start.y }, to: { x: end.x, y: end.y } };
  }
  fail(
    'ELEMENT_NOT_INTERACTABLE',
    'drag: the element and the drop target do not show together (bringing one into view scrolls the other out); scroll or make the window larger first',
  );
}

function dragSteps(page: TrustedPage, params: ForwardedParams<'drag'>): TrustedSteps {
  const from = requireTarget(params.target, 'drag');
  const onto = requireTarget(params.to, 'drag');
  let ends: DragEnds | undefined;
  const find = (): Promise<DragEnds> => locateEnds(page, from, onto, params.at);
  return {
    async prepare() {
      ends = await find();
    },
    async act() {
      await dragGesture(page.input, page.rest, ends ?? (await find()));
    },
  };
}

function dropSteps(page: TrustedPage, params: ForwardedParams<'drop'>): TrustedSteps {
  const onto = requireTarget(params.target, 'drop');
  const paths = params.files.map((f) => f.path);
  let point: PathPoint | undefined;
  return {
    async prepare() {
      point = await page.locate(onto, false, params.at);
    },
    async act() {
      await dropFiles(page.input, page.rest, point ?? (await page.locate(onto, false, params.at)), paths);
    },
  };
}

/** The steps of one trusted action; throws BAD_REQUEST at once for params no input could carry out. */
export function trustedSteps(page: TrustedPage, call: TrustedCall): TrustedSteps {
  switch (call.action) {
    case 'click':
      return clickSteps(page, call.params);
    case 'hover':
      return hoverSteps(page, call.params);
    case 'type':
      return typeSteps(page, call.params);
    case 'press':
      return pressSteps(page, call.params);
    case 'drag':
      return dragSteps(page, call.params);
    case 'drop':
      return dropSteps(page, call.params);
  }
}
