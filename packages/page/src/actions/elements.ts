/**
 * `elements` and `links`: visible actionable elements (or links) below the page or a target, each
 * registered for a ref and given a selector to fall back on.
 */
import type { ElementsDriverResult, LinksDriverResult } from '@bproxy/protocol';
import { HANDLES_PER_READ } from '@bproxy/protocol/plain';
import type { PageContext } from '../context';
import { collapse, nameOf, roleOf } from '../dom/aria';
import { deepElements, FrameReport } from '../dom/flat-tree';
import { isInteractive } from '../dom/interactive';
import { readRoot } from '../dom/resolve';
import { buildSelector } from '../dom/selector';
import { isDisabled, isVisible, styleOf } from '../dom/visibility';
import { optNumber, optString, optTarget, type Params } from '../params';
import { checkedState, displayValue, nameOrHint } from '../render/describe-control';

const DEFAULT_LIMIT = HANDLES_PER_READ;

type DriverElement = ElementsDriverResult['elements'][number];

function describeElement(ctx: PageContext, el: Element, role: string, name: string): DriverElement {
  const out: DriverElement = {
    ref: ctx.registry.refFor(el),
    selector: buildSelector(el),
    role,
    name,
    tag: el.localName,
  };
  const type = el.getAttribute('type');
  if (el.localName === 'input') out.type = (el as HTMLInputElement).type;
  else if (type !== null) out.type = type;
  const value = displayValue(el);
  if (value !== undefined) out.value = value.slice(0, 1000);
  const checked = checkedState(el);
  if (checked !== undefined) out.checked = checked;
  if (isDisabled(el)) out.disabled = true;
  if (el.localName === 'a' && el.hasAttribute('href')) out.href = (el as HTMLAnchorElement).href;
  if (el.localName === 'select')
    out.options = Array.from((el as HTMLSelectElement).options, (o) => collapse(o.label || o.text)).slice(
      0,
      100,
    );
  return out;
}

export function elements(ctx: PageContext, p: Params): ElementsDriverResult {
  const limit = optNumber(p, 'limit') ?? DEFAULT_LIMIT;
  const contains = optString(p, 'contains')?.toLowerCase();
  const wantedRole = optString(p, 'role');
  const frames = new FrameReport();
  const root = readRoot(optTarget(p), ctx.registry);
  const found: DriverElement[] = [];
  let total = 0;
  for (const el of deepElements(root, frames)) {
    if (!isInteractive(el, styleOf(el)) || !isVisible(el)) continue;
    const role = roleOf(el);
    if (wantedRole !== undefined && role !== wantedRole) continue;
    const name = nameOrHint(el, 120);
    if (
      contains !== undefined &&
      !name.toLowerCase().includes(contains) &&
      !collapse(el.textContent ?? '')
        .toLowerCase()
        .includes(contains)
    )
      continue;
    total++;
    if (found.length < limit) found.push(describeElement(ctx, el, role, name));
  }
  return {
    url: location.href,
    elements: found,
    total,
    truncated: total > found.length,
    ...frames.field((el) => ctx.registry.refFor(el)),
  };
}

export function links(ctx: PageContext, p: Params): LinksDriverResult {
  const limit = optNumber(p, 'limit') ?? DEFAULT_LIMIT;
  const contains = optString(p, 'contains')?.toLowerCase();
  const frames = new FrameReport();
  const root = readRoot(optTarget(p), ctx.registry);
  const found: LinksDriverResult['links'] = [];
  let total = 0;
  for (const el of deepElements(root, frames)) {
    if ((el.localName !== 'a' && el.localName !== 'area') || !el.hasAttribute('href') || !isVisible(el))
      continue;
    const text = nameOf(el);
    const href = (el as HTMLAnchorElement).href;
    if (
      contains !== undefined &&
      !text.toLowerCase().includes(contains) &&
      !href.toLowerCase().includes(contains)
    )
      continue;
    total++;
    if (found.length < limit)
      found.push({ ref: ctx.registry.refFor(el), selector: buildSelector(el), text, href });
  }
  return {
    url: location.href,
    links: found,
    total,
    truncated: total > found.length,
    ...frames.field((el) => ctx.registry.refFor(el)),
  };
}
