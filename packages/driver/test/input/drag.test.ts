/**
 * The drag gesture and the file drop of the driver kit against a recording browser: a pointer drag is
 * press, moves with the left button held (the first past the drag threshold) and the release; an HTML5
 * drag the browser intercepted goes on as drag events carrying its data, then the release, and the
 * interception is switched off again. Both ends of a drag are points of one scroll position: locating
 * the drop target may scroll the page, and the element's point is then located again.
 */
import { describe, expect, it } from 'vitest';
import {
  DriverFailure,
  dragGesture,
  dragWatch,
  dropFiles,
  trustedSteps,
  type InputCommands,
  type InputSender,
  type TrustedPage,
} from '../../src/index';

/** Records each command; `intercept` makes the browser report an HTML5 drag at the first held move. */
function recorder(options: { intercept?: Record<string, unknown> } = {}) {
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
});

describe('the file drop', () => {
  it("drops the checked paths as the drag's files: dragenter, dragover, drop on the point", async () => {
    const { input, sent } = recorder();
    await dropFiles(input, { pointer: null }, TO, ['/allowed/a.txt']);
    const drags = sent.filter((c) => c.method === 'Input.dispatchDragEvent');
    expect(drags.map((d) => d.params.type)).toEqual(['dragEnter', 'dragOver', 'dragOver', 'drop']);
    expect(drags.at(-1)?.params).toMatchObject({ x: 300, y: 160, data: { files: ['/allowed/a.txt'] } });
  });
});

/**
 * A page whose scroll position moves when an element that is cut off is located (it is scrolled into
 * view, as the page's `locate` does): the card at y 219 stays in view, the column at 364–540 of a
 * 493 px viewport is cut off until the page scrolls by 177, which moves the card to y 42. When the two
 * do not fit together, locating the card scrolls back and the column is cut off again.
 */
function scrollingPage(input: InputSender, fitTogether = true): TrustedPage {
  let scrollY = 0;
  return {
    input,
    rest: { pointer: null },
    locate: (target) => {
      if (target.ref === 'card') {
        const scrolled = !fitTogether && scrollY !== 0;
        if (scrolled) scrollY = 0;
        return Promise.resolve({ x: 134, y: 219 - scrollY, scrolled });
      }
      const scrolled = scrollY === 0;
      scrollY = 177;
      return Promise.resolve({ x: 391, y: 452 - scrollY, scrolled });
    },
    focusAt: () => Promise.resolve(true),
    checkHuman: () => Promise.resolve(),
  };
}

describe('the ends of a drag', () => {
  const call = { action: 'drag', params: { target: { ref: 'card' }, to: { ref: 'column' } } } as const;

  it('presses at the element as it shows after locating the drop target scrolled the page', async () => {
    const { input, sent } = recorder();
    const steps = trustedSteps(scrollingPage(input), call);
    await steps.prepare();
    await steps.act();
    const press = sent.find((c) => c.params.type === 'mousePressed');
    expect(press?.params).toMatchObject({ x: 134, y: 42 });
    const release = sent.find((c) => c.params.type === 'mouseReleased');
    expect(release?.params).toMatchObject({ x: 391, y: 275 });
  });

  it('refuses, before any input, ends that never show together', async () => {
    const { input, sent } = recorder();
    const error = await trustedSteps(scrollingPage(input, false), call)
      .prepare()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverFailure);
    expect((error as DriverFailure).error.code).toBe('ELEMENT_NOT_INTERACTABLE');
    expect(sent).toEqual([]);
  });
});
