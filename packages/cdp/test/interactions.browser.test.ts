import { describe, expect, it } from 'vitest';
import { driverResultSchema, HumanDetectionSchema, type ElementsDriverResult } from '@bproxy/protocol';
import { useLaunchedDriver } from './helpers/driver-fixture';

const f = useLaunchedDriver();

async function textOf(tabId: number): Promise<string> {
  return (await f.daemon.ok<{ text: string }>('text', {}, { tabId })).text;
}

describe('CDP driver: trusted input and forms', { timeout: 30_000 }, () => {
  it('clicks with trusted pointer events in the order a mouse makes them', async () => {
    const tabId = await f.openTab('/counter.html');
    const effects = await f.daemon.ok('click', { target: { selector: '#inc' } }, { tabId });
    expect(driverResultSchema('click').safeParse(effects).success).toBe(true);
    expect(effects).toMatchObject({ navigated: false, title: 'Counter', url: f.server.url('/counter.html') });
    expect(await textOf(tabId)).toContain('Count: 1');
  });

  it('moves the pointer along a path from where it rested, so a menu that tracks it chooses the item clicked', async () => {
    const tabId = await f.openTab('/pointer-menu.html');
    const first = { target: { selector: '#menu li:nth-child(1)' } };
    await f.daemon.ok('click', first, { tabId });
    expect(await textOf(tabId)).toContain('chose Java\n');
    // The items swapped: JavaScript now sits right under the resting pointer.
    await f.daemon.ok('click', first, { tabId });
    expect(await textOf(tabId)).toContain('chose JavaScript');
    const moves = async (): Promise<number> => Number(/moves: (\d+)/.exec(await textOf(tabId))?.[1]);
    const before = await moves();
    await f.daemon.ok('hover', { target: { selector: '#far' } }, { tabId });
    // Several distinct moves reach the page, not one jump.
    expect((await moves()) - before).toBeGreaterThanOrEqual(3);
  });

  it('acts with trusted input on href-less anchors, toolbar items, icon-only, keyboard-only and clipped controls', async () => {
    const refOf = async (tabId: number, name: string): Promise<string> => {
      const found = (await f.daemon.ok<ElementsDriverResult>('elements', {}, { tabId })).elements;
      const element = found.find((e) => e.name === name);
      if (element === undefined)
        throw new Error(`no element ${name} in ${JSON.stringify(found.map((e) => e.name))}`);
      return element.ref;
    };
    const clickOn = async (page: string, name: string): Promise<string> => {
      const tabId = await f.openTab(page);
      const clicked = await f.daemon.ok<{ title: string }>(
        'click',
        { target: { ref: await refOf(tabId, name) } },
        { tabId },
      );
      return clicked.title;
    };
    expect(await clickOn('/repro/anchor-buttons.html', 'Next')).toBe('Next');
    expect(await clickOn('/repro/toolbar.html', 'Forward')).toBe('forward');
    expect(await clickOn('/repro/icon-control.html', '#send-mail')).toBe('sent');
    expect(await clickOn('/repro/clipped-button.html', 'Go')).toBe('1');
    const tabId = await f.openTab('/repro/keyboard-box.html');
    const box = (await f.daemon.ok<ElementsDriverResult>('elements', {}, { tabId })).elements[0];
    await f.daemon.ok('press', { target: { ref: box?.ref }, key: 'ArrowRight' }, { tabId });
    expect(await textOf(tabId)).toMatch(/\b6\b/);
  });

  it('double-clicks with clickCount 2', async () => {
    const tabId = await f.openTab('/counter.html');
    await f.daemon.ok('click', { target: { selector: '#inc' }, clickCount: 2 }, { tabId });
    expect(await textOf(tabId)).toContain('Count: 2');
  });

  it('refuses to click an element covered by another one', async () => {
    const tabId = await f.openTab('/covered.html');
    const covered = await f.daemon.request('click', { target: { selector: '#under' } }, { tabId });
    expect(covered.ok === false && covered.error.code).toBe('ELEMENT_NOT_INTERACTABLE');
    const missing = await f.daemon.request('click', { target: { selector: '#nope' } }, { tabId });
    expect(missing.ok === false && missing.error.code).toBe('ELEMENT_NOT_FOUND');
    expect((await f.daemon.request('click', { target: { selector: '#ok' } }, { tabId })).ok).toBe(true);
  });

  it('clicks a button inside an open shadow root', async () => {
    const tabId = await f.openTab('/shadow.html');
    await f.daemon.ok('click', { target: { selector: 'x-widget >>> #inner-button' } }, { tabId });
    expect(await textOf(tabId)).toContain('Shadow clicks: 1');
  });

  it('clicks inside a same-origin iframe at the point the page reports in top-viewport pixels', async () => {
    const tabId = await f.openTab('/iframe.html');
    await f.daemon.ok('click', { target: { selector: 'iframe#same >>> #frame-button' } }, { tabId });
    const text = await f.daemon.ok<{ text: string; crossOriginFrames?: { src: string }[] }>(
      'text',
      {},
      { tabId },
    );
    expect(text.text).toContain('frame clicked');
    expect(text.crossOriginFrames?.[0]?.src).toContain('127.0.0.2');
  });

  it('hovers and clicks with events the page sees as trusted', async () => {
    const tabId = await f.openTab('/cdp-events.html');
    expect(await f.daemon.ok('hover', { target: { selector: '#target' } }, { tabId })).toMatchObject({
      navigated: false,
    });
    expect(await textOf(tabId)).toContain('mouseover:trusted');
    await f.daemon.ok('click', { target: { selector: '#target' } }, { tabId });
    expect(await textOf(tabId)).toContain('mousedown:trusted mouseup:trusted click:trusted');
    await f.daemon.ok('click', { target: { selector: '#target' }, button: 'right' }, { tabId });
    expect(await textOf(tabId)).toContain('contextmenu:trusted:b2');
  });

  it('fills fields, selects options and reads the values back', async () => {
    const tabId = await f.openTab('/forms.html');
    await f.daemon.ok('fill', { target: { selector: '#name' }, value: 'Ada Lovelace' }, { tabId });
    const selected = await f.daemon.ok<{ selected: string[] }>(
      'select',
      { target: { selector: '#country' }, values: ['Germany'] },
      { tabId },
    );
    expect(driverResultSchema('select').safeParse(selected).success).toBe(true);
    expect(selected.selected).toEqual(['de']);
    const inspected = await f.daemon.ok<{ value?: string }>(
      'inspect',
      { target: { selector: '#name' } },
      { tabId },
    );
    expect(inspected.value).toBe('Ada Lovelace');
  });

  it('types key by key into a controlled input and presses Enter to submit', async () => {
    const tabId = await f.openTab('/forms.html');
    await f.daemon.ok('type', { text: 'Hé 1!', target: { selector: '#controlled' } }, { tabId });
    let text = await textOf(tabId);
    expect(text).toContain('state: Hé 1!');
    expect(text).toContain('d:H');
    expect(text).toContain('u:!');
    await f.daemon.ok('press', { key: 'Control+A', target: { selector: '#controlled' } }, { tabId });
    await f.daemon.ok('press', { key: 'Backspace' }, { tabId });
    text = await textOf(tabId);
    expect(text).toMatch(/state:\s*(\n|$|Submitted)/);

    await f.daemon.ok('fill', { target: { selector: '#name' }, value: 'Ada' }, { tabId });
    await f.daemon.ok('press', { key: 'Enter', target: { selector: '#name' } }, { tabId });
    await f.daemon.ok('wait', { text: 'Submitted: name=Ada' }, { tabId });
  });

  it('types after the current text of a field it focuses, without clicking it', async () => {
    const tabId = await f.openTab('/forms.html');
    await f.daemon.ok('fill', { target: { selector: '#name' }, value: 'Ada' }, { tabId });
    await f.daemon.ok('type', { text: ' Lovelace', target: { selector: '#name' } }, { tabId });
    expect(await f.daemon.ok('inspect', { target: { selector: '#name' } }, { tabId })).toMatchObject({
      value: 'Ada Lovelace',
    });
    await f.daemon.ok('navigate', { url: f.server.url('/shadow.html') }, { tabId });
    await f.daemon.ok('type', { text: 'deep', target: { selector: 'x-widget >>> #inner-input' } }, { tabId });
    expect(
      await f.daemon.ok('inspect', { target: { selector: 'x-widget >>> #inner-input' } }, { tabId }),
    ).toMatchObject({ value: 'deep' });
  });

  it('presses Enter on a button once: focusing it does not click it', async () => {
    const tabId = await f.openTab('/counter.html');
    await f.daemon.ok('press', { key: 'Enter', target: { selector: '#inc' } }, { tabId });
    expect(await textOf(tabId)).toContain('Count: 1');
  });

  it('rejects a key it does not know', async () => {
    const tabId = await f.openTab('/forms.html');
    const response = await f.daemon.request('press', { key: 'Hyper' }, { tabId });
    expect(response.ok === false && response.error.code).toBe('BAD_REQUEST');
  });

  it('scrolls the page and waits for elements and text', async () => {
    const tabId = await f.openTab('/long.html');
    const scrolled = await f.daemon.ok<{ y: number; atTop: boolean }>(
      'scroll',
      { direction: 'down', amount: 800 },
      { tabId },
    );
    expect(driverResultSchema('scroll').safeParse(scrolled).success).toBe(true);
    expect(scrolled.y).toBeGreaterThan(0);
    expect(scrolled.atTop).toBe(false);
    const bottom = await f.daemon.ok<{ atBottom: boolean }>('scroll', { to: 'bottom' }, { tabId });
    expect(bottom.atBottom).toBe(true);
    const waited = await f.daemon.ok('wait', { selector: '#bottom-button' }, { tabId });
    expect(driverResultSchema('wait').safeParse(waited).success).toBe(true);
    const timeout = await f.daemon.request('wait', { selector: '#late', timeoutMs: 200 }, { tabId });
    expect(timeout.ok === false && timeout.error.code).toBe('WAIT_TIMEOUT');
  });

  it('waits for a navigation started by the page', async () => {
    const tabId = await f.openTab('/counter.html');
    const waiting = f.daemon.request('wait', { navigation: true, timeoutMs: 5_000 }, { tabId });
    await f.daemon.ok('navigate', { url: f.server.url('/forms.html'), waitUntil: 'none' }, { tabId });
    const waited = await waiting;
    expect(waited.ok && waited.data).toMatchObject({ url: f.server.url('/forms.html') });
    const none = await f.daemon.request('wait', { navigation: true, timeoutMs: 100 }, { tabId });
    expect(none.ok === false && none.error.code).toBe('WAIT_TIMEOUT');
  });

  it('reports a click that follows a link as navigated', async () => {
    const tabId = await f.openTab('/list.html');
    const effects = await f.daemon.ok(
      'click',
      { target: { selector: 'nav a[href="/forms.html"]' } },
      { tabId },
    );
    expect(effects).toMatchObject({ navigated: true, url: f.server.url('/forms.html'), title: 'Forms' });
  });
});

describe('CDP driver: dialogs', { timeout: 30_000 }, () => {
  it('answers a click that opens an alert at once, then refuses actions until the dialog is handled', async () => {
    const tabId = await f.openTab('/dialog.html');
    const started = Date.now();
    const effects = await f.daemon.ok(
      'click',
      { target: { selector: '#alert' } },
      { tabId, timeoutMs: 20_000 },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(effects).toMatchObject({ dialog: { type: 'alert', message: 'Hello from alert' } });
    const blocked = await f.daemon.request('text', {}, { tabId });
    expect(blocked.ok === false && blocked.error.code).toBe('DIALOG_OPEN');
    expect(await f.daemon.ok('dialog', { accept: true }, { tabId })).toEqual({
      type: 'alert',
      message: 'Hello from alert',
      accepted: true,
    });
    const none = await f.daemon.request('dialog', { accept: true }, { tabId });
    expect(none.ok === false && none.error.code).toBe('NO_DIALOG');
    expect((await f.daemon.request('text', {}, { tabId })).ok).toBe(true);
  });

  it('dismisses a confirm and answers a prompt with text', async () => {
    const tabId = await f.openTab('/dialog.html');
    await f.daemon.ok('click', { target: { selector: '#confirm' } }, { tabId });
    expect(await f.daemon.ok('dialog', { accept: false }, { tabId })).toMatchObject({
      type: 'confirm',
      accepted: false,
    });
    await f.daemon.ok('wait', { text: 'confirm: false' }, { tabId });
    await f.daemon.ok('click', { target: { selector: '#prompt' } }, { tabId });
    await f.daemon.ok('dialog', { accept: true, promptText: 'Grace' }, { tabId });
    await f.daemon.ok('wait', { text: 'prompt: Grace' }, { tabId });
  });

  it('reports a beforeunload dialog that stops a navigation as DIALOG_OPEN', async () => {
    const tabId = await f.openTab('/dialog.html');
    await f.daemon.ok('click', { target: { selector: '#guard' } }, { tabId });
    const response = await f.daemon.request('navigate', { url: f.server.url('/counter.html') }, { tabId });
    expect(response.ok === false && response.error.code).toBe('DIALOG_OPEN');
    expect(response.ok === false && response.error.details).toMatchObject({
      dialog: { type: 'beforeunload' },
    });
    await f.daemon.ok('dialog', { accept: true }, { tabId });
    await f.daemon.waitFor(
      () =>
        f.daemon.messages.some(
          (m) => m.type === 'navigation' && m.tabId === tabId && m.url === f.server.url('/counter.html'),
        ),
      'the navigation to go on after the dialog',
    );
  });
});

describe('CDP driver: humans, replays and deadlines', { timeout: 30_000 }, () => {
  it('answers HUMAN_REQUIRED with the reason after navigating to a CAPTCHA page, and before acting on it', async () => {
    const tabId = await f.openTab('/counter.html');
    const navigated = await f.daemon.request('navigate', { url: f.server.url('/captcha.html') }, { tabId });
    expect(navigated.ok === false && navigated.error.code).toBe('HUMAN_REQUIRED');
    expect(navigated.ok === false && navigated.error.message).toMatch(/reCAPTCHA/);
    expect(navigated.ok === false && navigated.error.reason).toMatch(/reCAPTCHA/);
    const read = await f.daemon.request('text', {}, { tabId });
    expect(read.ok === false && read.error.code).toBe('HUMAN_REQUIRED');
  });

  it('runs on a sign-in page once the daemon forwards a waiver for it, until the tab navigates', async () => {
    const tabId = await f.openTab('/signin.html');
    const refused = await f.daemon.request('text', {}, { tabId });
    if (refused.ok) throw new Error('a sign-in page was read without a person');
    expect(refused.error.code).toBe('HUMAN_REQUIRED');
    const found = HumanDetectionSchema.parse(refused.error.details);
    expect(found).toMatchObject({ kind: 'login', url: f.server.url('/signin.html') });
    const humanWaiver = { document: found.document, url: found.url, kinds: [found.kind] };
    const waived = { tabId, humanWaiver };
    await f.daemon.ok('fill', { target: { selector: '#email' }, value: 'ada@example.org' }, waived);
    await f.daemon.ok('click', { target: { selector: 'button' } }, waived);
    expect((await f.daemon.ok<{ text: string }>('text', {}, waived)).text).toContain(
      'Signed in as ada@example.org',
    );
    // A new document (the same URL loaded again) is not covered by the old waiver.
    const reloaded = await f.daemon.request('reload', {}, waived);
    expect(reloaded.ok === false && reloaded.error.code).toBe('HUMAN_REQUIRED');
    const again = await f.daemon.request('text', {}, waived);
    expect(again.ok === false && again.error.code).toBe('HUMAN_REQUIRED');
  });

  it('does not take a form that sets a password for a sign-in wall', async () => {
    const tabId = await f.openTab('/set-password.html');
    await f.daemon.ok('click', { target: { selector: 'button' } }, { tabId });
    expect((await f.daemon.ok<{ title: string }>('text', {}, { tabId })).title).toBe('Submitted');
  });

  it('runs a request id once: a replay after it finished gets the recorded answer', async () => {
    const tabId = await f.openTab('/counter.html');
    const request = f.daemon.forwarded('click', { target: { selector: '#inc' } }, { tabId });
    f.daemon.send(request);
    await f.daemon.waitFor(() => f.daemon.responses(request.id)[0], 'first answer');
    f.daemon.send(request);
    const [first, second] = await f.daemon.waitFor(() => {
      const all = f.daemon.responses(request.id);
      return all.length === 2 ? all : undefined;
    }, 'replayed answer');
    expect(second).toEqual(first);
    expect(await textOf(tabId)).toContain('Count: 1');
  });

  it('joins a replay that arrives while the request still runs', async () => {
    const tabId = await f.openTab('/counter.html');
    const request = f.daemon.forwarded('click', { target: { selector: '#inc' } }, { tabId });
    f.daemon.send(request);
    f.daemon.send(request);
    const all = await f.daemon.waitFor(() => {
      const r = f.daemon.responses(request.id);
      return r.length === 2 ? r : undefined;
    }, 'both answers');
    expect(all[0]).toEqual(all[1]);
    expect(await textOf(tabId)).toContain('Count: 1');
  });

  it('refuses a request whose deadline has passed without running it', async () => {
    const tabId = await f.openTab('/counter.html');
    const late = await f.daemon.request('click', { target: { selector: '#inc' } }, { tabId, timeoutMs: -1 });
    expect(late.ok === false && late.error.code).toBe('TIMEOUT');
    expect(await textOf(tabId)).toContain('Count: 0');
  });

  it('answers TIMEOUT at the deadline of a request that is still running', async () => {
    const tabId = await f.openTab('/counter.html');
    const started = Date.now();
    const slow = await f.daemon.request(
      'navigate',
      { url: f.server.url('/slow?ms=5000') },
      { tabId, timeoutMs: 500 },
    );
    expect(slow.ok === false && slow.error.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
