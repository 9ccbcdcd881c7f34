/**
 * `locate`: for drivers that press with trusted input. Scrolls the target into view, runs the
 * actionability checks and answers the point to press in top-viewport CSS pixels, with the document's
 * mark (which document, how many navigations it asked for).
 */
import type { DocumentMark, LocateResult } from '../api';
import type { PageContext } from '../context';
import { PageError } from '../errors';
import { ensureActionable } from '../dom/actionability';
import { resolveTarget } from '../dom/resolve';
import { asTextField, isContentEditable } from '../input/editing';
import { optBoolean, reqTarget, type Params } from '../params';

function optPoint(p: Params, key: string): { x: number; y: number } | undefined {
  const v = p[key] as { x?: unknown; y?: unknown } | undefined;
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || typeof v.x !== 'number' || typeof v.y !== 'number')
    throw new PageError('BAD_REQUEST', `params.${key}: expected { x, y }`);
  return { x: v.x, y: v.y };
}

export function locate(ctx: PageContext, p: Params): LocateResult {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const point = ensureActionable(el, { enabled: optBoolean(p, 'enabled') ?? true });
  const editable = asTextField(el) !== null || isContentEditable(el);
  const at = optPoint(p, 'at');
  if (at !== undefined) {
    // A point in the element (where a drag drops): from its top-left corner, kept inside it.
    const rect = el.getBoundingClientRect();
    const x = Math.min(rect.left + at.x, rect.right - 1) + (point.top.x - point.local.x);
    const y = Math.min(rect.top + at.y, rect.bottom - 1) + (point.top.y - point.local.y);
    return { x, y, tag: el.localName, editable, scrolled: point.scrolled, ...documentMark(ctx) };
  }
  const { scrolled } = point;
  return { x: point.top.x, y: point.top.y, tag: el.localName, editable, scrolled, ...documentMark(ctx) };
}

export function documentMark(ctx: PageContext): DocumentMark {
  return { document: ctx.documentId, navigations: ctx.navigations(), url: location.href };
}
