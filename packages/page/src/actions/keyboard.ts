/** `type` and `press`: key events on the target or the focused element, then the browser's default action. */
import type { PageContext } from '../context';
import { ensureActionable } from '../dom/actionability';
import { deepActiveElement } from '../dom/flat-tree';
import { resolveTarget } from '../dom/resolve';
import { asTextField } from '../input/editing';
import { keyDefault } from '../input/key-defaults';
import { fireKey, parseKey, strokeForChar, type KeyStroke } from '../input/keys';
import { optTarget, reqString, type Params } from '../params';
import { effects, type Effects } from './effects';
import { focusField } from './fill';

/** The element keys go to: the target (checked and focused) or whatever has focus now. */
function keyTarget(ctx: PageContext, p: Params, editing: boolean): Element {
  const target = optTarget(p);
  if (target !== undefined) {
    const el = resolveTarget(target, ctx.registry);
    ensureActionable(el, { enabled: true, editable: editing && asTextField(el) !== null });
    const wasFocused = deepActiveElement() === el;
    focusField(el);
    const field = asTextField(el);
    // Typing into a field that was just focused continues after its current text, as a click at its end would.
    if (editing && field !== null && !wasFocused) {
      try {
        field.setSelectionRange(field.value.length, field.value.length);
      } catch {
        // No selection API on this input type.
      }
    }
    return el;
  }
  return deepActiveElement() ?? document.body;
}

function stroke(el: Element, key: KeyStroke): void {
  const plain = !key.ctrlKey && !key.metaKey && !key.altKey;
  const producesCharacter = key.printable || (key.key === 'Enter' && plain);
  if (fireKey(el, 'keydown', key) && (!producesCharacter || fireKey(el, 'keypress', key)))
    keyDefault(el, key);
  // Tab moved focus: the browser sends keyup to the newly focused element.
  fireKey(deepActiveElement() ?? el, 'keyup', key);
}

export function type(ctx: PageContext, p: Params): Effects {
  const text = reqString(p, 'text');
  let el = keyTarget(ctx, p, true);
  for (const ch of text) {
    stroke(el, strokeForChar(ch));
    el = deepActiveElement() ?? el;
  }
  return effects();
}

export function press(ctx: PageContext, p: Params): Effects {
  const key = parseKey(reqString(p, 'key'));
  stroke(keyTarget(ctx, p, false), key);
  return effects();
}
