/**
 * `drag` as a person's gesture: the pointer travels to the element, presses, moves in steps to the
 * drop point with the button held, and lets go there. Pointer-event sortables see pointerdown, moves
 * and pointerup; HTML5 drag and drop starts from the same moves in the browser itself (dragstart,
 * dragover, drop with its DataTransfer), so both kinds work through one gesture.
 */
import type { PathPoint } from '@bproxy/page';
import { approach, seenMove, type InputSender, type PointerRest } from './input-events';

/** Moves with the button held: enough for the browser to start a drag and the page to follow it. */
const STEPS = 12;

export interface DragEnds {
  from: PathPoint;
  to: PathPoint;
}

export async function dragGesture(input: InputSender, rest: PointerRest, ends: DragEnds): Promise<void> {
  const { from, to } = ends;
  const { end } = await approach(input, rest, from, false);
  await seenMove(input, end, 0);
  await seenMove(input, from, 0);
  // An HTML5 drag is handed to us instead of the system's drag loop (which no CDP input reaches).
  const drags = input.watchDrags?.();
  if (drags !== undefined) await input.send('Input.setInterceptDrags', { enabled: true });
  try {
    await input.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      x: from.x,
      y: from.y,
      button: 'left',
      buttons: 1,
      clickCount: 1,
    });
    for (let i = 1; i <= STEPS; i++) {
      const point = { x: from.x + ((to.x - from.x) * i) / STEPS, y: from.y + ((to.y - from.y) * i) / STEPS };
      await seenMove(input, point, 1);
      rest.pointer = point;
    }
    // Once more on the spot: a drop target updates its drop effect on a dragover there.
    await seenMove(input, to, 1);
    const data = drags === undefined ? null : await drags.settled();
    if (data !== null) {
      for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
        await input.send('Input.dispatchDragEvent', { type, x: to.x, y: to.y, data });
    }
    await input.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x: to.x,
      y: to.y,
      button: 'left',
      buttons: 0,
      clickCount: 1,
    });
    rest.pointer = { x: to.x, y: to.y };
  } finally {
    drags?.stop();
    if (drags !== undefined)
      await input.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}
