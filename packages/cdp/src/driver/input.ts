/**
 * Trusted input through Input.dispatch*: the mouse travelling to a viewport point along a hand's path
 * and pressing there, keys with their proper key/code/keyCode/modifiers, and text typed character by
 * character.
 */
import { pointerPath, type PathPoint } from '@bproxy/page';
import type { CdpSession } from '../cdp/session';
import { keyDefinition, MODIFIER_BITS, type KeyCombo, type KeyDefinition, type ModifierName } from './keys';

export type MouseButton = 'left' | 'middle' | 'right';
const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

/** The pointer's resting place, kept per tab by the caller and updated here after every move. */
export interface PointerRest {
  pointer: PathPoint | null;
}

function moved(session: CdpSession, point: PathPoint, timeoutMs: number): Promise<unknown> {
  return session.send(
    'Input.dispatchMouseEvent',
    { type: 'mouseMoved', x: point.x, y: point.y, button: 'none', buttons: 0 },
    timeoutMs,
  );
}

/**
 * Travels along a hand's path (pointer-path in @bproxy/page) toward `to`, up to its last point, and
 * answers that point (where the final move and a press belong) and whether it moved at all. Each move
 * is awaited before the next: sent together, the renderer coalesces them into one jump, and pages that
 * track the pointer (a menu focusing the item under it) would see the teleport the path avoids.
 */
export async function approach(
  session: CdpSession,
  rest: PointerRest,
  to: PathPoint,
  timeoutMs: number,
): Promise<{ end: PathPoint; travelled: boolean }> {
  const path = pointerPath(rest.pointer, to);
  const end = path[path.length - 1] ?? to;
  for (const point of path.slice(0, -1)) {
    await moved(session, point, timeoutMs);
    rest.pointer = point;
  }
  return { end, travelled: path.length > 1 };
}

export async function mouseMove(
  session: CdpSession,
  rest: PointerRest,
  to: PathPoint,
  timeoutMs: number,
): Promise<void> {
  const { end } = await approach(session, rest, to, timeoutMs);
  await moved(session, end, timeoutMs);
  rest.pointer = end;
}

/** The last move onto `point` (an approach's end) and the presses there. */
export async function mouseClick(
  session: CdpSession,
  rest: PointerRest,
  point: PathPoint,
  options: { button: MouseButton; clickCount: number; timeoutMs: number },
): Promise<void> {
  const { x, y } = point;
  // Sent back to back and awaited together: the renderer holds a lone mouseMoved until the next
  // animation frame (up to 16 ms), while a press queued right behind it flushes it at once. The order
  // is kept: one session delivers its commands in order.
  const sends: Promise<unknown>[] = [moved(session, point, options.timeoutMs)];
  rest.pointer = { x, y };
  for (let count = 1; count <= options.clickCount; count++) {
    const common = { x, y, button: options.button, clickCount: count };
    sends.push(
      session.send(
        'Input.dispatchMouseEvent',
        { type: 'mousePressed', ...common, buttons: BUTTON_BITS[options.button] },
        options.timeoutMs,
      ),
      session.send(
        'Input.dispatchMouseEvent',
        { type: 'mouseReleased', ...common, buttons: 0 },
        options.timeoutMs,
      ),
    );
  }
  await Promise.all(sends);
}

function bitsOf(modifiers: readonly ModifierName[]): number {
  return modifiers.reduce((bits, name) => bits | MODIFIER_BITS[name], 0);
}

async function keyDown(
  session: CdpSession,
  def: KeyDefinition,
  modifiers: number,
  typesText: boolean,
  timeoutMs: number,
): Promise<void> {
  const text = typesText ? def.text : undefined;
  await session.send(
    'Input.dispatchKeyEvent',
    {
      type: text === undefined ? 'rawKeyDown' : 'keyDown',
      key: def.key,
      code: def.code,
      windowsVirtualKeyCode: def.keyCode,
      modifiers,
      ...(text === undefined ? {} : { text, unmodifiedText: text }),
      ...(def.location === undefined ? {} : { location: def.location }),
    },
    timeoutMs,
  );
}

async function keyUp(
  session: CdpSession,
  def: KeyDefinition,
  modifiers: number,
  timeoutMs: number,
): Promise<void> {
  await session.send(
    'Input.dispatchKeyEvent',
    {
      type: 'keyUp',
      key: def.key,
      code: def.code,
      windowsVirtualKeyCode: def.keyCode,
      modifiers,
      ...(def.location === undefined ? {} : { location: def.location }),
    },
    timeoutMs,
  );
}

/** Presses the modifiers in order, the key, then releases in reverse, as a keyboard would. */
export async function pressCombo(session: CdpSession, combo: KeyCombo, timeoutMs: number): Promise<void> {
  const held: ModifierName[] = [];
  for (const name of combo.modifiers) {
    held.push(name);
    const def = keyDefinition(name)?.def;
    if (def !== undefined) await keyDown(session, def, bitsOf(held), false, timeoutMs);
  }
  const bits = bitsOf(held) | (combo.impliedShift ? MODIFIER_BITS.Shift : 0);
  // A held Control/Alt/Meta turns a character key into a shortcut: it must not also type the character.
  const typesText = !held.some((m) => m !== 'Shift');
  await keyDown(session, combo.key, bits, typesText, timeoutMs);
  await keyUp(session, combo.key, bits, timeoutMs);
  while (held.length > 0) {
    const name = held.pop();
    const def = name === undefined ? undefined : keyDefinition(name)?.def;
    if (def !== undefined) await keyUp(session, def, bitsOf(held), timeoutMs);
  }
}

/** Types text: known keys as real key events, anything else (accents, CJK, emoji) as inserted text. */
export async function typeText(session: CdpSession, text: string, timeoutMs: number): Promise<void> {
  for (const ch of text) {
    const name = ch === '\n' || ch === '\r' ? 'Enter' : ch === '\t' ? 'Tab' : ch;
    const found = keyDefinition(name);
    if (found === undefined) {
      await session.send('Input.insertText', { text: ch }, timeoutMs);
      continue;
    }
    await pressCombo(session, { modifiers: [], key: found.def, impliedShift: found.shift }, timeoutMs);
  }
}
