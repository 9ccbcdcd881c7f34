/**
 * Trusted input as Chromium's DevTools protocol makes it (Input.dispatch*): the pointer travelling to a
 * viewport point along a hand's path and pressing there, keys with their key/code/keyCode/modifiers,
 * and text typed character by character. The events are the browser's own — isTrusted, with user
 * activation — whichever driver sends the commands: the CDP driver through its page session, the
 * extension through chrome.debugger. Each driver implements InputSender; the sequences live here once.
 */
import { pointerPath, type PathPoint } from '@bproxy/page';
import { keyDefinition, MODIFIER_BITS, type KeyCombo, type KeyDefinition, type ModifierName } from './keys';

export type MouseButton = 'left' | 'middle' | 'right';

/** The input commands the sequences send, with the params they use. */
export interface InputCommands {
  'Input.dispatchMouseEvent': {
    type: 'mouseMoved' | 'mousePressed' | 'mouseReleased';
    x: number;
    y: number;
    button?: 'none' | MouseButton;
    buttons?: number;
    clickCount?: number;
    modifiers?: number;
  };
  'Input.dispatchKeyEvent': {
    type: 'keyDown' | 'rawKeyDown' | 'keyUp' | 'char';
    modifiers?: number;
    key?: string;
    code?: string;
    text?: string;
    unmodifiedText?: string;
    windowsVirtualKeyCode?: number;
    location?: number;
  };
  'Input.insertText': { text: string };
  'Input.setInterceptDrags': { enabled: boolean };
  'Input.dispatchDragEvent': {
    type: 'dragEnter' | 'dragOver' | 'drop' | 'dragCancel';
    x: number;
    y: number;
    data: Record<string, unknown>;
  };
}

/** Sends one input command to the tab's page and resolves when the renderer has handled it. */
export interface InputSender {
  send<M extends keyof InputCommands>(method: M, params: InputCommands[M]): Promise<unknown>;
  /**
   * Starts watching for Input.dragIntercepted (an HTML5 drag the browser handed us, with its drag
   * data): `data()` answers it once seen, else null; `stop()` ends the watch.
   */
  watchDrags?(): DragWatch;
}

/** A watch for an HTML5 drag the browser intercepted. */
export interface DragWatch {
  /** The drag's data if the browser has intercepted one by now, else null. */
  data(): Record<string, unknown> | null;
  stop(): void;
}

/** A DragWatch over a driver's event subscription: `subscribe` calls back with each intercepted drag's data. */
export function dragWatch(
  subscribe: (seen: (data: Record<string, unknown>) => void) => () => void,
): DragWatch {
  let data: Record<string, unknown> | null = null;
  const stop = subscribe((d) => {
    data = d;
  });
  return { data: () => data, stop };
}

/** The pointer's resting place, kept per tab by the driver and updated here after every move. */
export interface PointerRest {
  pointer: PathPoint | null;
}

const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };

/**
 * How long a move on the pointer's way is waited for. Its answer comes with the page's next frame; a
 * page that draws none (the first moves in a popup window of headless Chromium were answered after five seconds) would
 * stall the stroke, so past this the sequence goes on: the renderer keeps the commands in order, and
 * a press behind the moves flushes them.
 */
export const MOVE_WAIT_CAP_MS = 250;

/** Waits for a sent move, up to MOVE_WAIT_CAP_MS; a refusal before then is thrown. */
async function seen(sent: Promise<unknown>): Promise<void> {
  sent.catch(() => undefined); // a refusal after the cap surfaces on the next command instead
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cap = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MOVE_WAIT_CAP_MS);
  });
  try {
    await Promise.race([sent, cap]);
  } finally {
    clearTimeout(timer);
  }
}

function moved(input: InputSender, point: PathPoint): Promise<unknown> {
  return input.send('Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x: point.x,
    y: point.y,
    button: 'none',
    buttons: 0,
  });
}

/**
 * Travels along a hand's path (pointer-path in @bproxy/page) toward `to`, up to its last point, and
 * answers that point (where the final move and a press belong) and whether it moved at all.
 *
 * Chromium hands the page at most one mousemove per animation frame: moves queued within one frame are
 * coalesced into the last of them (the others only in the event's getCoalescedEvents()), and a lone
 * move is held until the next frame. `eachSeen` waits for every move before sending the next, so the
 * page sees each point — one frame apiece, as a slow hand; otherwise the moves go together and the page
 * sees one quick stroke, and only that frame is waited for.
 */
export async function approach(
  input: InputSender,
  rest: PointerRest,
  to: PathPoint,
  eachSeen: boolean,
): Promise<{ end: PathPoint; travelled: boolean }> {
  const path = pointerPath(rest.pointer, to);
  const end = path[path.length - 1] ?? to;
  const way = path.slice(0, -1);
  if (eachSeen) {
    for (const point of way) {
      await seen(moved(input, point));
      rest.pointer = point;
    }
  } else if (way.length > 0) {
    await seen(Promise.all(way.map((point) => moved(input, point))));
    rest.pointer = way[way.length - 1] ?? rest.pointer;
  }
  return { end, travelled: way.length > 0 };
}

/** One move to `point` with these buttons held (a bit field: 1 = left), waited for as a hand's move. */
export async function seenMove(input: InputSender, point: PathPoint, buttons: number): Promise<void> {
  await seen(
    input.send('Input.dispatchMouseEvent', {
      type: 'mouseMoved',
      x: point.x,
      y: point.y,
      button: buttons === 0 ? 'none' : 'left',
      buttons,
    }),
  );
}

/** Moves the pointer onto `to`, every point of the way seen by the page (hover). */
export async function mouseMove(input: InputSender, rest: PointerRest, to: PathPoint): Promise<void> {
  const { end } = await approach(input, rest, to, true);
  await seen(moved(input, end));
  rest.pointer = end;
}

/** The last move onto `point` (an approach's end) and the presses there. */
export async function mouseClick(
  input: InputSender,
  rest: PointerRest,
  point: PathPoint,
  options: { button: MouseButton; clickCount: number },
): Promise<void> {
  const { x, y } = point;
  // Sent back to back and awaited together: a lone mouseMoved waits for the next animation frame (up
  // to 16 ms), while a press queued right behind it flushes it at once. The order is kept: the
  // commands reach the renderer in the order they were sent.
  const sends: Promise<unknown>[] = [moved(input, point)];
  rest.pointer = { x, y };
  for (let count = 1; count <= options.clickCount; count++) {
    const common = { x, y, button: options.button, clickCount: count };
    sends.push(
      input.send('Input.dispatchMouseEvent', {
        type: 'mousePressed',
        ...common,
        buttons: BUTTON_BITS[options.button],
      }),
      input.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...common, buttons: 0 }),
    );
  }
  await Promise.all(sends);
}

function bitsOf(modifiers: readonly ModifierName[]): number {
  return modifiers.reduce((bits, name) => bits | MODIFIER_BITS[name], 0);
}

function keyDown(input: InputSender, def: KeyDefinition, modifiers: number, typesText: boolean) {
  const text = typesText ? def.text : undefined;
  return input.send('Input.dispatchKeyEvent', {
    type: text === undefined ? 'rawKeyDown' : 'keyDown',
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    modifiers,
    ...(text === undefined ? {} : { text, unmodifiedText: text }),
    ...(def.location === undefined ? {} : { location: def.location }),
  });
}

function keyUp(input: InputSender, def: KeyDefinition, modifiers: number) {
  return input.send('Input.dispatchKeyEvent', {
    type: 'keyUp',
    key: def.key,
    code: def.code,
    windowsVirtualKeyCode: def.keyCode,
    modifiers,
    ...(def.location === undefined ? {} : { location: def.location }),
  });
}

/**
 * Presses the modifiers in order, the key, then releases in reverse, as a keyboard would. The
 * modifiers pressed are released even when a send fails midway: a Control left down would turn the
 * user's next keystrokes in that tab into shortcuts.
 */
export async function pressCombo(input: InputSender, combo: KeyCombo): Promise<void> {
  const held: ModifierName[] = [];
  try {
    for (const name of combo.modifiers) {
      held.push(name);
      const def = keyDefinition(name)?.def;
      if (def !== undefined) await keyDown(input, def, bitsOf(held), false);
    }
    const bits = bitsOf(held) | (combo.impliedShift ? MODIFIER_BITS.Shift : 0);
    // A held Control/Alt/Meta turns a character key into a shortcut: it must not also type the character.
    const typesText = !held.some((m) => m !== 'Shift');
    await keyDown(input, combo.key, bits, typesText);
    await keyUp(input, combo.key, bits);
  } finally {
    while (held.length > 0) {
      const name = held.pop();
      const def = name === undefined ? undefined : keyDefinition(name)?.def;
      if (def !== undefined) await keyUp(input, def, bitsOf(held)).catch(() => undefined);
    }
  }
}

/** Types text: known keys as real key events, anything else (accents, CJK, emoji) as inserted text. */
export async function typeText(input: InputSender, text: string): Promise<void> {
  for (const ch of text) {
    const name = ch === '\n' || ch === '\r' ? 'Enter' : ch === '\t' ? 'Tab' : ch;
    const found = keyDefinition(name);
    if (found === undefined) {
      await input.send('Input.insertText', { text: ch });
      continue;
    }
    await pressCombo(input, { modifiers: [], key: found.def, impliedShift: found.shift });
  }
}
