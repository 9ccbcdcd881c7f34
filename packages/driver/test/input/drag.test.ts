/**
 * The drag gesture and the file drop of the driver kit against a recording browser: a pointer drag is
 * press, moves with the left button held (the first past the drag threshold) and the release; an HTML5
 * drag the browser intercepted goes on as drag events carrying its data, then the release, and the
 * interception is switched off again; where the browser hands drag events to no page (headless), an
 * HTML5 drag or a file drop is refused, never answered as done.
 */
import { describe, expect, it } from 'vitest';
import {
  DriverFailure,
  dragGesture,
  dragWatch,
  dropFiles,
  type InputCommands,
  type InputSender,
} from '../../src/index';

/** Records each command; `intercept` makes the browser report an HTML5 drag at the first held move. */
function recorder(options: { intercept?: Record<string, unknown>; dragEvents?: boolean } = {}) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  let seen: ((data: Record<string, unknown>) => void) | null = null;
  const input: InputSender = {
    async send<M extends keyof InputCommands>(method: M, params: InputCommands[M]): Promise<unknown> {
      sent.push({ method, params: { ...params } });
      const p = params as { type?: string; buttons?: number };
      if (
        options.intercept &&
        method === 'Input.dispatchMouseEvent' &&
        p.type === 'mouseMoved' &&
        p.buttons === 1
      )
        seen?.(options.intercept);
      await Promise.resolve();
      return {};
    },
    watchDrags: () =>
      dragWatch((s) => {
        seen = s;
        return () => {
          seen = null;
        };
      }),
    ...(options.dragEvents === undefined ? {} : { dragEvents: options.dragEvents }),
  };
  return { input, sent };
}

const FROM = { x: 100, y: 100 };
const TO = { x: 300, y: 160 };
const kind = (c: { method: string; params: Record<string, unknown> }): string =>
  `${c.method.replace('Input.', '')}:${String(c.params.type ?? c.params.enabled)}`;

describe('the drag gesture', () => {
  it('presses, moves with the left button held (the first past the threshold) and releases on the target', async () => {
    const { input, sent } = recorder();
    await dragGesture(input, { pointer: null }, { from: FROM, to: TO });
    const press = sent.findIndex((c) => c.params.type === 'mousePressed');
    const release = sent.findIndex((c) => c.params.type === 'mouseReleased');
    expect(press).toBeGreaterThan(0);
    expect(sent[press]?.params).toMatchObject({ x: 100, y: 100, button: 'left', buttons: 1 });
    const held = sent.slice(press + 1, release);
    expect(held.length).toBeGreaterThanOrEqual(10);
    for (const move of held)
      expect(move.params).toMatchObject({ type: 'mouseMoved', button: 'left', buttons: 1 });
    const first = held[0]?.params as { x: number; y: number };
    expect(Math.hypot(first.x - FROM.x, first.y - FROM.y)).toBeGreaterThan(5);
    expect(sent[release]?.params).toMatchObject({ x: 300, y: 160, buttons: 0 });
    expect(sent.some((c) => c.method === 'Input.dispatchDragEvent')).toBe(false);
    expect(sent.at(-1)).toMatchObject({ method: 'Input.setInterceptDrags', params: { enabled: false } });
  });

  it('carries an intercepted HTML5 drag on as drag events with its data, drops on the point, then releases', async () => {
    const data = { items: [{ mimeType: 'text/plain', data: 'card-x' }], dragOperationsMask: 16 };
    const { input, sent } = recorder({ intercept: data });
    await dragGesture(input, { pointer: null }, { from: FROM, to: TO });
    const kinds = sent.map(kind);
    expect(kinds.indexOf('setInterceptDrags:true')).toBeLessThan(
      kinds.indexOf('dispatchMouseEvent:mousePressed'),
    );
    const drags = sent.filter((c) => c.method === 'Input.dispatchDragEvent');
    expect(drags[0]?.params.type).toBe('dragEnter');
    expect(drags.at(-1)?.params).toMatchObject({ type: 'drop', x: 300, y: 160, data });
    for (const d of drags) expect(d.params.data).toEqual(data);
    expect(kinds.indexOf('dispatchMouseEvent:mouseReleased')).toBeGreaterThan(
      kinds.lastIndexOf('dispatchDragEvent:drop'),
    );
    expect(kinds.at(-1)).toBe('setInterceptDrags:false');
  });

  it('refuses an HTML5 drag where the browser hands drag events to no page, releasing the button', async () => {
    const { input, sent } = recorder({ intercept: { items: [], dragOperationsMask: 1 }, dragEvents: false });
    const error = await dragGesture(input, { pointer: null }, { from: FROM, to: TO }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DriverFailure);
    expect((error as DriverFailure).error.code).toBe('UNSUPPORTED_ACTION');
    const kinds = sent.map(kind);
    expect(kinds).toContain('dispatchMouseEvent:mouseReleased');
    expect(kinds).not.toContain('dispatchDragEvent:drop');
    expect(kinds.at(-1)).toBe('setInterceptDrags:false');
  });

  it('still drags a pointer sortable there (no HTML5 drag started)', async () => {
    const { input, sent } = recorder({ dragEvents: false });
    await dragGesture(input, { pointer: null }, { from: FROM, to: TO });
    expect(sent.map(kind)).toContain('dispatchMouseEvent:mouseReleased');
  });
});

describe('the file drop', () => {
  it("drops the checked paths as the drag's files: dragenter, dragover, drop on the point", async () => {
    const { input, sent } = recorder();
    await dropFiles(input, { pointer: null }, TO, ['/allowed/a.txt']);
    const drags = sent.filter((c) => c.method === 'Input.dispatchDragEvent');
    expect(drags.map((d) => d.params.type)).toEqual(['dragEnter', 'dragOver', 'dragOver', 'drop']);
    expect(drags.at(-1)?.params).toMatchObject({ x: 300, y: 160, data: { files: ['/allowed/a.txt'] } });
  });

  it('is refused before any input where the browser hands drag events to no page', async () => {
    const { input, sent } = recorder({ dragEvents: false });
    const error = await dropFiles(input, { pointer: null }, TO, ['/allowed/a.txt']).catch((e: unknown) => e);
    expect((error as DriverFailure).error.code).toBe('UNSUPPORTED_ACTION');
    expect(sent).toEqual([]);
  });
});
