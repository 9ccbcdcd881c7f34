/**
 * `drag` as a person's gesture: the pointer travels to the element, presses, moves in steps to the
 * drop point with the button held, and lets go there. Pointer-event sortables see pointerdown, the
 * moves and pointerup. An HTML5 drag (a draggable element: dragstart with its DataTransfer) is started
 * by the browser from the same press and moves; it is intercepted (Input.setInterceptDrags) so that no
 * system drag loop (which no dispatched input reaches) takes it, and the rest of the way goes as drag
 * events carrying the page's own drag data: dragenter, dragover along the remaining steps, drop at the
 * point, then the release. `dropFiles` drops files the same way, their drag data made of the paths.
 */
import type { PathPoint } from '@bproxy/page';
import { approach, seenMove, type InputSender, type PointerRest } from './input-events';

/** Moves with the button held: enough for the browser to start a drag and the page to follow it. */
const STEPS = 12;
/** Chromium starts an HTML5 drag once the pointer has moved this far (CSS px) from the press. */
const DRAG_THRESHOLD = 5;

export interface DragEnds {
  from: PathPoint;
  to: PathPoint;
}

/** The points of the way from `from` to `to`, the first past the drag threshold. */
function dragPath(from: PathPoint, to: PathPoint): PathPoint[] {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  const points: PathPoint[] = [];
  if (length < DRAG_THRESHOLD * 2) {
    // A short drag still starts one: out past the threshold, then back onto the point.
    points.push({ x: from.x + DRAG_THRESHOLD + 1, y: from.y + DRAG_THRESHOLD + 1 });
  }
  for (let i = 1; i <= STEPS; i++)
    points.push({ x: from.x + (dx * i) / STEPS, y: from.y + (dy * i) / STEPS });
  return points;
}

const mouse = (type: 'mousePressed' | 'mouseReleased', point: PathPoint) =>
  ({
    type,
    x: point.x,
    y: point.y,
    button: 'left',
    buttons: type === 'mousePressed' ? 1 : 0,
    clickCount: 1,
  }) as const;

export async function dragGesture(input: InputSender, rest: PointerRest, ends: DragEnds): Promise<void> {
  const { from, to } = ends;
  const { end } = await approach(input, rest, from, false);
  await seenMove(input, end, 0);
  await seenMove(input, from, 0);
  rest.pointer = { x: from.x, y: from.y };
  const drags = input.watchDrags?.();
  if (drags !== undefined) await input.send('Input.setInterceptDrags', { enabled: true });
  let data: Record<string, unknown> | null = null;
  try {
    await input.send('Input.dispatchMouseEvent', mouse('mousePressed', from));
    for (const point of dragPath(from, to)) {
      if (data === null) {
        await seenMove(input, point, 1);
        // The browser answers a move that started an HTML5 drag after telling us of it.
        data = drags?.data() ?? null;
        if (data !== null)
          await input.send('Input.dispatchDragEvent', { type: 'dragEnter', ...xy(point), data });
      } else {
        await input.send('Input.dispatchDragEvent', { type: 'dragOver', ...xy(point), data });
      }
      rest.pointer = point;
    }
    if (data === null) {
      // Once more on the spot: a sortable settles where the pointer rests.
      await seenMove(input, to, 1);
    } else {
      await input.send('Input.dispatchDragEvent', { type: 'dragOver', ...xy(to), data });
      await input.send('Input.dispatchDragEvent', { type: 'drop', ...xy(to), data });
    }
    await input.send('Input.dispatchMouseEvent', mouse('mouseReleased', to));
    rest.pointer = { x: to.x, y: to.y };
  } finally {
    drags?.stop();
    if (drags !== undefined)
      await input.send('Input.setInterceptDrags', { enabled: false }).catch(() => undefined);
  }
}

const xy = (p: PathPoint) => ({ x: p.x, y: p.y });

/** Copy, in a DragData's operations mask. */
const COPY = 1;

/**
 * Files dropped at `to` as a person drops them from a file manager: the pointer comes in (dragenter,
 * dragovers along its last steps), the files land (drop). The paths are real files the daemon checked.
 */
export async function dropFiles(
  input: InputSender,
  rest: PointerRest,
  to: PathPoint,
  files: readonly string[],
): Promise<void> {
  const data = { items: [], files: [...files], dragOperationsMask: COPY };
  const { end } = await approach(input, rest, to, false);
  await input.send('Input.dispatchDragEvent', { type: 'dragEnter', ...xy(end), data });
  await input.send('Input.dispatchDragEvent', { type: 'dragOver', ...xy(end), data });
  await input.send('Input.dispatchDragEvent', { type: 'dragOver', ...xy(to), data });
  await input.send('Input.dispatchDragEvent', { type: 'drop', ...xy(to), data });
  rest.pointer = { x: to.x, y: to.y };
}
