import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { SnapshotDriverResult } from '@bproxy/protocol';
import { fails, ok, open, usePageFixtures, withHtml } from './harness';

const env = usePageFixtures();

const url = (name: string): string => `${env.server.origin}/${name}`;
const read = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

describe('click', () => {
  it('fires the full pointer sequence with coordinates and answers the page effects', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    const r = await ok(page, 'click', { target: { selector: '#inc' } });
    expect(r).toEqual({ url: url('counter.html'), title: 'Counter', navigated: false });
    expect(await read(page, 'window.__clicks')).toBe(1);
    expect(await read(page, 'window.__events')).toEqual([
      'pointerover@',
      'pointerenter@',
      'mouseover@',
      'pointerdown@',
      'mousedown@',
      'focus',
      'pointerup@',
      'mouseup@',
      'click@',
    ]);
    await ok(page, 'click', { target: { selector: '#inc' }, clickCount: 2 });
    expect(await page.textContent('#count')).toBe('3');
    await page.close();
  });

  it('refuses covered, disabled, hidden, invisible and transparent elements, saying which', async () => {
    const page = await open(env.browser.context, url('covered.html'));
    const cases: [string, RegExp][] = [
      ['#under', /covered by div#overlay/],
      ['#disabled', /is disabled/],
      ['#hidden', /display:none/],
      ['#invisible', /visibility:hidden/],
      ['#transparent', /opacity:0/],
    ];
    for (const [selector, message] of cases) {
      const error = await fails(page, 'click', { target: { selector } });
      expect(error.code).toBe('ELEMENT_NOT_INTERACTABLE');
      expect(error.message).toMatch(message);
    }
    expect(await read(page, 'window.__under')).toBeUndefined();
    await ok(page, 'click', { target: { selector: '#ok' } });
    expect(await read(page, 'window.__ok')).toBe(true);
    await page.close();
  });

  it('clicks inside an open shadow root and a same-origin iframe', async () => {
    const page = await open(env.browser.context, url('shadow.html'));
    await ok(page, 'click', { target: { selector: '#widget >>> #inner-button' } });
    await ok(page, 'click', { target: { selector: '#inner-button' } });
    expect(await page.textContent('#count')).toBe('2');
    const frames = await open(env.browser.context, url('iframe.html'));
    await ok(frames, 'click', { target: { selector: '#same >>> #frame-button' } });
    expect(await frames.frameLocator('#same').locator('#frame-out').textContent()).toBe('frame clicked');
    await page.close();
    await frames.close();
  });

  it('scrolls an element clipped inside a scrolling container into view and clicks it', async () => {
    const repro =
      '<div style="height:80px;overflow:auto"><div style="height:300px"></div><button onclick="document.title=1">Go</button></div>';
    await withHtml(env.browser.context, repro, async (page) => {
      const before = await ok<SnapshotDriverResult>(page, 'snapshot');
      expect(before.snapshot).toMatch(/^button "Go" clipped \uE0000\uE001$/m);
      await ok(page, 'click', { target: { selector: 'button' } });
      expect(await page.title()).toBe('1');
      const after = await ok<SnapshotDriverResult>(page, 'snapshot');
      expect(after.snapshot).toMatch(/^button "Go" \uE0000\uE001$/m);
    });
  });

  it('says a control is clipped by its container, not covered, when scrolling cannot show it', async () => {
    const html =
      '<div id="box" style="height:0;overflow:hidden;padding:0"><button style="margin-top:20px">Hidden</button></div><p>after</p>';
    await withHtml(env.browser.context, html, async (page) => {
      const error = await fails(page, 'click', { target: { selector: 'button' } });
      expect(error.code).toBe('ELEMENT_NOT_INTERACTABLE');
      expect(error.message).toMatch(/clipped by div#box/);
      expect(error.message).not.toMatch(/covered/);
    });
  });

  it('scrolls an element below the fold into view before clicking it', async () => {
    const page = await open(env.browser.context, url('long.html'));
    await ok(page, 'click', { target: { selector: '#bottom-button' } });
    expect(await read(page, 'window.__bottom')).toBe(true);
    expect(await read<number>(page, 'scrollY')).toBeGreaterThan(1000);
    await page.close();
  });
});

describe('pointer path', () => {
  it('travels from where the pointer rested, so a menu that tracks it chooses the item clicked', async () => {
    const page = await open(env.browser.context, url('pointer-menu.html'));
    const first = '#menu li:nth-child(1)';
    await ok(page, 'click', { target: { selector: first } });
    expect(await page.textContent('#out')).toBe('chose Java');
    // The items swapped: JavaScript now sits right under the resting pointer.
    await ok(page, 'click', { target: { selector: first } });
    expect(await page.textContent('#out')).toBe('chose JavaScript');

    const before = await read<number>(page, '__points.length');
    await ok(page, 'hover', { target: { selector: '#far' } });
    const path = (await read<[number, number][]>(page, '__points')).slice(before);
    expect(path.length).toBeGreaterThanOrEqual(3);
    expect(new Set(path.map((p) => p.join(','))).size).toBe(path.length);
    const box = await page.locator('#far').boundingBox();
    const end = path[path.length - 1] ?? [0, 0];
    // Event coordinates are whole pixels: the last move is within a pixel of the center.
    expect(Math.abs(end[0] - ((box?.x ?? 0) + (box?.width ?? 0) / 2))).toBeLessThanOrEqual(1);
    expect(Math.abs(end[1] - ((box?.y ?? 0) + (box?.height ?? 0) / 2))).toBeLessThanOrEqual(1);
    await page.close();
  });
});

describe('hover', () => {
  it('moves the pointer onto the element', async () => {
    const page = await open(env.browser.context, url('counter.html'));
    await ok(page, 'hover', { target: { selector: '#inc' } });
    expect(await read(page, 'window.__events')).toEqual(['pointerover@', 'pointerenter@', 'mouseover@']);
    await page.close();
  });
});

describe('fill', () => {
  it('sets values so a controlled (React-like) input sees the change', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    // The fixture is meaningful: a plain assignment plus an input event is ignored, as React would.
    await page.evaluate(() => {
      const input = document.getElementById('controlled') as HTMLInputElement;
      input.value = 'ignored';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(await page.textContent('#state')).toBe('');
    await ok(page, 'fill', { target: { selector: '#controlled' }, value: 'hello' });
    expect(await page.textContent('#state')).toBe('hello');
    await ok(page, 'fill', { target: { selector: '#controlled' }, value: 'again' });
    expect(await page.textContent('#state')).toBe('again');
    await page.close();
  });

  it('fills text, textarea, contenteditable and date fields and fires input and change', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      for (const type of ['input', 'change'])
        document.addEventListener(type, (e) => seen.push(`${type}:${(e.target as Element).id}`), true);
    });
    await ok(page, 'fill', { target: { selector: '#name' }, value: 'Ada Lovelace' });
    await ok(page, 'fill', { target: { selector: '#bio' }, value: 'line one\nline two' });
    await ok(page, 'fill', { target: { selector: '#editor' }, value: 'Rich notes' });
    await ok(page, 'fill', { target: { selector: '#birthday' }, value: '2024-02-29' });
    expect(await page.inputValue('#name')).toBe('Ada Lovelace');
    expect(await page.inputValue('#bio')).toBe('line one\nline two');
    expect(await page.textContent('#editor')).toBe('Rich notes');
    expect(await page.inputValue('#birthday')).toBe('2024-02-29');
    expect(await read(page, '__seen')).toEqual(
      expect.arrayContaining([
        'input:name',
        'change:name',
        'input:bio',
        'change:bio',
        'input:editor',
        'change:birthday',
      ]),
    );
    await page.close();
  });

  it('refuses read-only fields, non-fields and values a number field rejects', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    expect((await fails(page, 'fill', { target: { selector: '#readonly' }, value: 'x' })).message).toMatch(
      /read-only/,
    );
    expect((await fails(page, 'fill', { target: { selector: '#terms' }, value: 'x' })).message).toMatch(
      /use click/,
    );
    expect((await fails(page, 'fill', { target: { selector: '#country' }, value: 'x' })).message).toMatch(
      /use select/,
    );
    expect((await fails(page, 'fill', { target: { selector: '#age' }, value: 'abc' })).code).toBe(
      'BAD_REQUEST',
    );
    await page.close();
  });

  it('fills an input inside a shadow root', async () => {
    const page = await open(env.browser.context, url('shadow.html'));
    await ok(page, 'fill', { target: { selector: '#widget >>> #inner-input' }, value: 'deep' });
    expect(
      await page.evaluate(
        () =>
          (document.querySelector('#widget')?.shadowRoot?.querySelector('#inner-input') as HTMLInputElement)
            .value,
      ),
    ).toBe('deep');
    await page.close();
  });
});

describe('type and press', () => {
  it('types key by key into the target, firing keydown and keyup per character', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await ok(page, 'type', { target: { selector: '#controlled' }, text: 'Hi!' });
    expect(await page.inputValue('#controlled')).toBe('Hi!');
    expect(await page.textContent('#state')).toBe('Hi!');
    expect(await page.textContent('#keys')).toBe('d:H u:H d:i u:i d:! u:! ');
    await ok(page, 'type', { text: ' there' });
    expect(await page.inputValue('#controlled')).toBe('Hi! there');
    await page.close();
  });

  it('fills in the legacy keyCode, which and charCode that older widget libraries read', async () => {
    const html = `<input id="f"><script>
      window.__keys = [];
      for (const type of ['keydown', 'keypress', 'keyup'])
        f.addEventListener(type, (e) => __keys.push([type, e.key, e.keyCode, e.which, e.charCode].join(' ')));
    </script>`;
    await withHtml(env.browser.context, html, async (page) => {
      await ok(page, 'type', { target: { selector: '#f' }, text: 'a' });
      await ok(page, 'press', { key: 'ArrowRight' });
      await ok(page, 'press', { key: 'Enter' });
      expect(await read(page, '__keys')).toEqual([
        'keydown a 65 65 0',
        'keypress a 97 97 97',
        'keyup a 65 65 0',
        'keydown ArrowRight 39 39 0',
        'keyup ArrowRight 39 39 0',
        'keydown Enter 13 13 0',
        'keypress Enter 13 13 13',
        'keyup Enter 13 13 0',
      ]);
    });
  });

  it('edits with Backspace and Control+A like a keyboard', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await ok(page, 'type', { target: { selector: '#name' }, text: 'abcd' });
    await ok(page, 'press', { key: 'Backspace' });
    expect(await page.inputValue('#name')).toBe('abc');
    await ok(page, 'press', { key: 'Control+A' });
    await ok(page, 'type', { text: 'new' });
    expect(await page.inputValue('#name')).toBe('new');
    await page.close();
  });

  it('submits the form on Enter in a text field', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await ok(page, 'fill', { target: { selector: '#name' }, value: 'Grace' });
    await ok(page, 'press', { key: 'Enter', target: { selector: '#name' } });
    expect(await read(page, '__submits')).toBe(1);
    expect(await page.textContent('#result')).toContain('name=Grace');
    await page.close();
  });

  it('moves focus with Tab and Shift+Tab', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await ok(page, 'press', { key: 'Tab', target: { selector: '#name' } });
    expect(await read(page, 'document.activeElement.id')).toBe('email');
    await ok(page, 'press', { key: 'Shift+Tab' });
    expect(await read(page, 'document.activeElement.id')).toBe('name');
    await page.close();
  });

  it('inserts a newline in a textarea on Enter and rejects unknown keys', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await ok(page, 'type', { target: { selector: '#bio' }, text: 'a\nb' });
    expect(await page.inputValue('#bio')).toBe('a\nb');
    expect((await fails(page, 'press', { key: 'Hyper' })).code).toBe('BAD_REQUEST');
    await page.close();
  });
});

describe('select', () => {
  it('chooses by value or label and fires change', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    expect(await ok(page, 'select', { target: { selector: '#country' }, values: ['de'] })).toMatchObject({
      selected: ['de'],
      navigated: false,
    });
    expect(await ok(page, 'select', { target: { selector: '#country' }, values: ['France'] })).toMatchObject({
      selected: ['fr'],
    });
    expect(
      await ok(page, 'select', { target: { selector: '#toppings' }, values: ['ham', 'Olives'] }),
    ).toMatchObject({ selected: ['ham', 'olives'] });
    expect((await fails(page, 'select', { target: { selector: '#country' }, values: ['Japan'] })).code).toBe(
      'ELEMENT_NOT_INTERACTABLE',
    );
    expect((await fails(page, 'select', { target: { selector: '#country' }, values: ['Mars'] })).code).toBe(
      'ELEMENT_NOT_FOUND',
    );
    expect((await fails(page, 'select', { target: { selector: '#name' }, values: ['x'] })).code).toBe(
      'ELEMENT_NOT_INTERACTABLE',
    );
    await page.close();
  });
});

describe('scroll', () => {
  it('scrolls the page by direction, to the bottom, to the top and to an element', async () => {
    const page = await open(env.browser.context, url('long.html'));
    const down = await ok<{ y: number; atTop: boolean; atBottom: boolean }>(page, 'scroll', {
      direction: 'down',
    });
    expect(down.y).toBe(560);
    expect(down.atTop).toBe(false);
    expect(await ok(page, 'scroll', { direction: 'up', amount: 100 })).toMatchObject({ y: 460 });
    expect(await ok(page, 'scroll', { to: 'bottom' })).toMatchObject({ atBottom: true });
    expect(await ok(page, 'scroll', { to: 'top' })).toEqual({ x: 0, y: 0, atTop: true, atBottom: false });
    const toElement = await ok<{ y: number }>(page, 'scroll', {
      to: 'element',
      target: { selector: '#box' },
    });
    expect(toElement.y).toBeGreaterThan(4000);
    await page.close();
  });

  it('scrolls a scrollable element', async () => {
    const page = await open(env.browser.context, url('long.html'));
    const r = await ok(page, 'scroll', { target: { selector: '#box' }, direction: 'down', amount: 300 });
    expect(r).toEqual({ x: 0, y: 300, atTop: false, atBottom: false });
    await page.close();
  });
});

describe('wait', () => {
  it('resolves when text appears and when an element becomes visible or goes away', async () => {
    const page = await open(env.browser.context, url('long.html'));
    await page.evaluate(() =>
      setTimeout(() => document.getElementById('late')?.removeAttribute('hidden'), 150),
    );
    const text = await ok<{ waitedMs: number }>(page, 'wait', { text: 'late TEXT' });
    expect(text.waitedMs).toBeGreaterThanOrEqual(100);
    await ok(page, 'wait', { selector: '#late', state: 'visible' });
    await page.evaluate(() => setTimeout(() => document.getElementById('late')?.remove(), 50));
    await ok(page, 'wait', { selector: '#late', state: 'detached' });
    await ok(page, 'wait', { selector: '#late', state: 'hidden', timeoutMs: 100 });
    await page.close();
  });

  it('fails with WAIT_TIMEOUT when the condition does not hold in time', async () => {
    const page = await open(env.browser.context, url('long.html'));
    const error = await fails(page, 'wait', { selector: '#never', timeoutMs: 200 });
    expect(error.code).toBe('WAIT_TIMEOUT');
    expect(error.message).toContain('#never');
    expect((await fails(page, 'wait', { navigation: true })).code).toBe('UNSUPPORTED_ACTION');
    await page.close();
  });
});

describe('locate', () => {
  it('answers the top-viewport center of an element, including inside a frame', async () => {
    const page = await open(env.browser.context, url('iframe.html'));
    const r = await ok<{ x: number; y: number; editable: boolean }>(page, 'locate', {
      target: { selector: '#same >>> #frame-button' },
    });
    const box = await page.frameLocator('#same').locator('#frame-button').boundingBox();
    expect(box).not.toBeNull();
    if (box === null) return;
    expect(r.x).toBeCloseTo(box.x + box.width / 2, 0);
    expect(r.y).toBeCloseTo(box.y + box.height / 2, 0);
    expect(r.editable).toBe(false);
    // The point really is the button: a trusted click there hits it.
    await page.mouse.click(r.x, r.y);
    expect(await page.frameLocator('#same').locator('#frame-out').textContent()).toBe('frame clicked');
    await page.close();
  });

  it('answers the document mark, whose count grows with every navigation the page asks for, trusted input or not', async () => {
    type Mark = { document: string; navigations: number; url: string };
    const page = await open(env.browser.context, url('forms.html'));
    const first = await ok<Mark & { x: number; y: number }>(page, 'locate', {
      target: { selector: '#submit' },
    });
    expect(first).toMatchObject({ navigations: 0, url: url('forms.html') });
    // A submit the page cancels asks for nothing.
    await page.mouse.click(first.x, first.y);
    expect(await read(page, 'window.__submits')).toBe(1);
    expect(await ok<Mark>(page, 'pageInfo')).toMatchObject({ document: first.document, navigations: 0 });
    await page.evaluate(() => history.pushState({}, '', '#moved'));
    expect(await ok<Mark>(page, 'pageInfo')).toMatchObject({ document: first.document, navigations: 1 });
    await page.close();
  });

  it('says whether bringing the element into view scrolled the page (a point located before is stale)', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await page.evaluate(() => {
      const spacer = document.createElement('div');
      spacer.style.height = '3000px';
      const far = document.createElement('button');
      far.id = 'far';
      far.textContent = 'far';
      document.body.append(spacer, far);
    });
    const first = await ok<{ scrolled: boolean }>(page, 'locate', { target: { selector: '#far' } });
    expect(first.scrolled).toBe(true);
    expect(await read(page, 'window.scrollY')).toBeGreaterThan(0);
    const again = await ok<{ scrolled: boolean }>(page, 'locate', { target: { selector: '#far' } });
    expect(again.scrolled).toBe(false);
    await page.close();
  });

  it('fails on a covered element', async () => {
    const page = await open(env.browser.context, url('covered.html'));
    expect((await fails(page, 'locate', { target: { selector: '#under' } })).code).toBe(
      'ELEMENT_NOT_INTERACTABLE',
    );
    await page.close();
  });
});
