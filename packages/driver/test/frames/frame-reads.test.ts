import { describe, expect, it } from 'vitest';
import type { PageAction } from '@bproxy/page';
import { fail, framedRead, parseFrameRef, readWithFrames, type FramePages } from '../../src/index';

const SLOT = (n: number): string => `\uE002${n}\uE003`;
const REF = (n: number): string => `\uE000${n}\uE001`;

interface FakeFrame {
  url: string;
  snapshot?: Record<string, unknown>;
  elements?: Record<string, unknown>;
}

/** Frames by key; `owners` maps a frame element's ref in the top document to a frame key. */
function fakePages(
  top: Record<string, unknown>,
  frames: Record<string, FakeFrame>,
  owners: Record<string, string>,
) {
  const calls: { frame: string | null; action: PageAction }[] = [];
  const pages: FramePages = {
    run(frame, action) {
      calls.push({ frame, action });
      if (frame === null) return Promise.resolve(top);
      const f = frames[frame];
      if (f === undefined) return Promise.reject(new Error('no such frame'));
      if (action === 'pageInfo')
        return Promise.resolve({ url: f.url, document: 'd', navigations: 0, title: '' });
      return Promise.resolve(action === 'snapshot' ? f.snapshot : f.elements);
    },
    focusAt: () => Promise.resolve(true),
    frameOf: (_parent, slot) => {
      const key = owners[slot.ref];
      return Promise.resolve(key === undefined ? { reason: 'no frame' } : { key });
    },
  };
  return { pages, calls };
}

describe('reads with cross-origin frames', () => {
  it('puts a frame’s outline under its line, marked with its origin, its refs naming the path to them', async () => {
    const top = {
      url: 'http://shop.test/',
      title: 'Shop',
      snapshot: `h1 "Shop"\nbutton "Buy" ${REF(0)}\niframe "Card" ${SLOT(0)}`,
      refs: [{ ref: 'r7', selector: '#buy', kind: 'el' }],
      totalChars: 10,
      truncated: false,
      frameSlots: [{ slot: 0, ref: 'r9', src: 'https://pay.test/card' }],
    };
    const frame = {
      url: 'https://pay.test/card',
      snapshot: {
        url: 'https://pay.test/card',
        title: 'Card',
        snapshot: `textbox "Card number" ${REF(0)}`,
        refs: [{ ref: 'r3', selector: '#card', kind: 'el' }],
        totalChars: 5,
        truncated: false,
      },
    };
    const { pages } = fakePages(top, { F1: frame }, { r9: 'F1' });
    const r = await readWithFrames(pages, 'snapshot', {});
    expect(r.snapshot).toBe(
      `h1 "Shop"\nbutton "Buy" ${REF(0)}\niframe "Card" frame https://pay.test\n  textbox "Card number" ${REF(1)}`,
    );
    expect(r.refs).toEqual([
      { ref: 'r7', selector: '#buy', kind: 'el' },
      { ref: 'r9@F1:r3', selector: '#card', kind: 'el' },
    ]);
    expect(r).not.toHaveProperty('frameSlots');
    expect(r).not.toHaveProperty('crossOriginFrames');
    expect(parseFrameRef('r9@F1:r3')).toEqual({ hops: [{ owner: 'r9', frame: 'F1' }], local: 'r3' });
  });

  it('never reads another extension’s frame, a browser page or an error page, and names each with why', async () => {
    const top = {
      url: 'http://shop.test/',
      elements: [],
      total: 0,
      truncated: false,
      frameSlots: [
        { slot: 0, ref: 'r1', src: '' },
        { slot: 1, ref: 'r2', src: 'http://down.test/' },
        { slot: 2, ref: 'r3', src: '' },
      ],
    };
    const secret = {
      url: 'chrome-extension://abc/menu.html',
      elements: { elements: [{ name: 'password' }] },
    };
    const { pages, calls } = fakePages(
      top,
      {
        X: secret,
        E: { url: 'chrome-error://chromewebdata/' },
        C: { url: 'chrome://settings/' },
      },
      { r1: 'X', r2: 'E', r3: 'C' },
    );
    const r = await readWithFrames(pages, 'elements', {});
    expect(r.elements).toEqual([]);
    expect(r.crossOriginFrames).toEqual([
      { src: '', reason: 'not a web page (chrome-extension:)' },
      { src: 'http://down.test/', reason: 'the frame did not load (refused or unreachable)' },
      { src: '', reason: 'not a web page (chrome:)' },
    ]);
    // Only the page's address was asked: nothing was read in those frames.
    expect(calls.filter((c) => c.frame !== null).map((c) => c.action)).toEqual([
      'pageInfo',
      'pageInfo',
      'pageInfo',
    ]);
  });

  it('names a frame that failed under the read, and reads the frame a scoped read points into', async () => {
    const { pages } = fakePages(
      {
        url: 'http://shop.test/',
        elements: [],
        total: 0,
        truncated: false,
        frameSlots: [{ slot: 0, ref: 'r1', src: 'https://gone.test/' }],
      },
      {},
      { r1: 'G' },
    );
    const r = await readWithFrames(pages, 'elements', {});
    expect(r.crossOriginFrames).toEqual([{ src: 'https://gone.test/', reason: 'no such frame' }]);

    const inner: FramePages = {
      ...pages,
      run: (frame, action) =>
        frame === 'F1' && action === 'elements'
          ? Promise.resolve({
              url: 'https://pay.test/',
              elements: [{ ref: 'r4', selector: '#x', role: 'button', name: 'Pay', tag: 'button' }],
              total: 1,
              truncated: false,
            })
          : fail('DRIVER_ERROR', 'unexpected'),
    };
    const scoped = await framedRead(inner, 'elements', { target: { ref: 'r9@F1:r2' } }, () =>
      Promise.reject(new Error('the top document is not read for a scoped read')),
    );
    expect(scoped.elements).toEqual([
      {
        ref: 'r9@F1:r4',
        selector: '#x',
        role: 'button',
        name: 'Pay',
        tag: 'button',
        frame: 'https://pay.test',
      },
    ]);
  });
});
