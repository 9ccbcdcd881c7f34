/**
 * Trusted input through Input.dispatch*: mouse at a viewport point, keys with their proper
 * key/code/keyCode/modifiers, and text typed character by character.
 */
import type { CdpSession } from '../cdp/session';
import { keyDefinition, MODIFIER_BITS, type KeyCombo, type KeyDefinition, type ModifierName } from './keys';

export type MouseButton = 'left' | 'middle' | 'right';
const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

export async function mouseMove(session: CdpSession, x: number, y: number, timeoutMs: number): Promise<void> {
  await session.send(
    'Input.dispatchMouseEvent',
    { type: 'mouseMoved', x, y, button: 'none', buttons: 0 },
    timeoutMs,
  );
}

export async function mouseClick(
  session: CdpSession,
  point: { x: number; y: number },
  options: { button: MouseButton; clickCount: number; timeoutMs: number },
): Promise<void> {
  const { x, y } = point;
  // Sent back to back and awaited together: the renderer holds a lone mouseMoved until the next
  // animation frame (up to 16 ms), while a press queued right behind it flushes it at once. The
  // order is kept: one session delivers its commands in order.
  const sends: Promise<unknown>[] = [
    session.send(
      'Input.dispatchMouseEvent',
      { type: 'mouseMoved', x, y, button: 'none', buttons: 0 },
      options.timeoutMs,
    ),
  ];
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
