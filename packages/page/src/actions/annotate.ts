/**
 * Labels for `screenshot --annotate`, drawn on the page only while the driver captures it:
 * - `inView`: the refs (and selectors, kinds) of the actionable elements a person sees in the viewport,
 *   found by the same walk as the snapshot (so the daemon mints the snapshot's own handles for them);
 * - `annotateShow` `{labels: [{ref, label}]}`: outlines each element still in view and writes its label
 *   at its top-left corner, in one overlay that takes no pointer events and sits in a closed shadow
 *   root on the root element (the page's styles do not reach it, its scripts cannot read into it);
 *   answers the boxes drawn, in viewport CSS pixels, and the viewport's width;
 * - `annotateHide`: removes the overlay. Drivers call it in a `finally`, before the answer leaves.
 */
import type { SnapshotDriverResult } from '@bproxy/protocol';
import { HANDLES_PER_READ } from '@bproxy/protocol/plain';
import type { PageContext } from '../context';
import { FrameReport } from '../dom/flat-tree';
import { buildSelector } from '../dom/selector';
import { UnseenText } from '../dom/unseen';
import { PageError } from '../errors';
import type { Params } from '../params';
import { nameOrHint } from '../render/describe-control';
import { buildOutline } from '../render/outline';

/** The colours of the outline and of the label's background, and the label's text colour. */
export const LABEL_COLOUR = '#ff00ff';
const LABEL_TEXT = '#ffffff';
const MAX_LABELS = 2 * HANDLES_PER_READ;

const overlays = new Set<Element>();

function viewportBox(el: Element): DOMRect | null {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  if (r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight) return null;
  return r;
}

/** `snapshot` with the daemon's `inView`: no outline, the refs of the actionable elements in view. */
export function inView(ctx: PageContext): SnapshotDriverResult {
  const outline = buildOutline(
    document.body ?? document.documentElement,
    new FrameReport(),
    { prose: false },
    new UnseenText(),
  );
  const counted = { el: 0, ln: 0 };
  const refs: SnapshotDriverResult['refs'] = [];
  for (const entry of outline.refs) {
    if (counted[entry.kind] >= HANDLES_PER_READ || viewportBox(entry.el) === null) continue;
    counted[entry.kind]++;
    refs.push({ ref: ctx.registry.refFor(entry.el), selector: buildSelector(entry.el), kind: entry.kind });
  }
  return { url: location.href, title: document.title, snapshot: '', refs, totalChars: 0, truncated: false };
}

interface Label {
  ref: string;
  label: string;
}

function labelsOf(p: Params): Label[] {
  const raw = p.labels;
  if (!Array.isArray(raw) || raw.length > MAX_LABELS)
    throw new PageError('BAD_REQUEST', 'labels: expected a list');
  return raw.map((item: unknown) => {
    const { ref, label } = (item ?? {}) as { ref?: unknown; label?: unknown };
    if (typeof ref !== 'string' || typeof label !== 'string' || label.length > 16)
      throw new PageError('BAD_REQUEST', 'labels: expected {ref, label} items');
    return { ref, label };
  });
}

export interface AnnotateResult {
  /** The window's width (what a viewport capture spans) and the layout viewport's (without scrollbar). */
  windowWidth: number;
  clientWidth: number;
  boxes: { ref: string; name: string; x: number; y: number; width: number; height: number }[];
}

export function annotateShow(ctx: PageContext, p: Params): AnnotateResult {
  const labels = labelsOf(p);
  annotateHide();
  const host = document.createElement('div');
  host.style.cssText =
    'all:initial;position:fixed;inset:0;z-index:2147483647;pointer-events:none;contain:strict';
  const root = host.attachShadow({ mode: 'closed' });
  const boxes: AnnotateResult['boxes'] = [];
  for (const { ref, label } of labels) {
    const el = ctx.registry.lookup(ref);
    const r = el === null ? null : viewportBox(el);
    if (el === null || r === null) continue;
    const frame = document.createElement('div');
    frame.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${r.height}px;box-sizing:border-box;border:2px solid ${LABEL_COLOUR}`;
    const tag = document.createElement('div');
    tag.textContent = label;
    tag.style.cssText = `position:fixed;left:${Math.max(0, r.left)}px;top:${Math.max(0, r.top)}px;background:${LABEL_COLOUR};color:${LABEL_TEXT};font:bold 11px/13px monospace;padding:0 2px;white-space:nowrap`;
    root.append(frame, tag);
    boxes.push({ ref, name: nameOrHint(el, 40), x: r.left, y: r.top, width: r.width, height: r.height });
  }
  document.documentElement.append(host);
  overlays.add(host);
  return { windowWidth: innerWidth, clientWidth: document.documentElement.clientWidth || innerWidth, boxes };
}

export function annotateHide(): { removed: number } {
  let removed = 0;
  for (const host of overlays) {
    host.remove();
    removed++;
  }
  overlays.clear();
  return { removed };
}
