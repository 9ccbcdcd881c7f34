/** `inspect`: one element described the way a person would check it before acting. */
import type { ActionResult } from '@bproxy/protocol';
import type { PageContext } from '../context';
import { nameOf, roleOf } from '../dom/aria';
import { deepActiveElement, FrameReport } from '../dom/flat-tree';
import { topBox } from '../dom/geometry';
import { resolveTarget } from '../dom/resolve';
import { UnseenText } from '../dom/unseen';
import { isDisabled, isVisible } from '../dom/visibility';
import { optString, reqTarget, type Params } from '../params';
import { recogniseTarget } from '../dom/sensitive';
import { checkedState, displayValue } from '../render/describe-control';
import { visibleText } from '../render/visible-text';

const ATTR_MAX = 500;
const TEXT_MAX = 2000;

/**
 * The element inspected: the target; for the daemon's approvals read before `press Enter` with no
 * target, the focused element (through shadow roots and same-origin frames), where the key goes.
 */
function inspected(ctx: PageContext, p: Params): Element {
  if (p.target === undefined && optString(p, 'approval') === 'enter')
    return deepActiveElement() ?? document.body;
  return resolveTarget(reqTarget(p), ctx.registry);
}

export function inspect(ctx: PageContext, p: Params): ActionResult<'inspect'> {
  const el = inspected(ctx, p);
  const attributes: Record<string, string> = {};
  for (const attr of Array.from(el.attributes).slice(0, 50)) {
    // Field values live in properties; the value attribute of a password field is never echoed.
    if (attr.name === 'value' && (el as HTMLInputElement).type === 'password') continue;
    attributes[attr.name] = attr.value.slice(0, ATTR_MAX);
  }
  const box = topBox(el);
  const view = window;
  const visible = isVisible(el);
  const result: ActionResult<'inspect'> = {
    tag: el.localName,
    role: roleOf(el),
    name: nameOf(el),
    text: visibleText(el, new FrameReport(), new UnseenText()).slice(0, TEXT_MAX),
    attributes,
    box,
    visible,
    enabled: !isDisabled(el),
    inViewport:
      visible &&
      box.x < view.innerWidth &&
      box.y < view.innerHeight &&
      box.x + box.width > 0 &&
      box.y + box.height > 0,
  };
  const value = displayValue(el);
  if (value !== undefined) result.value = value;
  const checked = checkedState(el);
  if (checked !== undefined) result.checked = checked;
  // The daemon's own read before an acting action (approvals): what the action would do.
  const approval = optString(p, 'approval');
  if (approval !== undefined) result.sensitive = recogniseTarget(el, approval === 'enter');
  return result;
}
