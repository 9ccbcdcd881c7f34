/**
 * `locate`: for drivers that press with trusted input. Scrolls the target into view, runs the
 * actionability checks and answers the point to press in top-viewport CSS pixels, with the document's
 * mark (which document, how many navigations it asked for).
 */
import type { DocumentMark, LocateResult } from '../api';
import type { PageContext } from '../context';
import { ensureActionable } from '../dom/actionability';
import { resolveTarget } from '../dom/resolve';
import { asTextField, isContentEditable } from '../input/editing';
import { optBoolean, reqTarget, type Params } from '../params';

export function locate(ctx: PageContext, p: Params): LocateResult {
  const el = resolveTarget(reqTarget(p), ctx.registry);
  const point = ensureActionable(el, { enabled: optBoolean(p, 'enabled') ?? true });
  const editable = asTextField(el) !== null || isContentEditable(el);
  return { x: point.top.x, y: point.top.y, tag: el.localName, editable, ...documentMark(ctx) };
}

export function documentMark(ctx: PageContext): DocumentMark {
  return { document: ctx.documentId, navigations: ctx.navigations(), url: location.href };
}
