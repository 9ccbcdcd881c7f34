/**
 * The end-to-end action suite, written once and run against every driver: each test drives the
 * fixture pages through real CLI processes and asserts what the page shows afterwards (its text,
 * counters, URLs), not only that the command answered ok. This file holds the reads and the
 * interactions; flows.ts the navigation, tabs, handle errors and the human hand-off;
 * widgets.ts real widget pages driven by handles only; gestures.ts trusted input, what
 * only a real gesture may do, and the tabs pages open; urls.ts the URLs an agent may not open;
 * diff.ts snapshot diffs and handles across re-renders; screenshots.ts annotated and scaled screenshots.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { leaked, lost, UNRENDERED_TRICKS, UNSEEN_TRICKS } from '../../fixtures/hidden-text';
import { Agent, pngSize, type DriverUnderTest } from '../agent';
import { allowClasses } from '../allow-classes';
import { defineDiffTests } from './diff';
import { defineFlowTests } from './flows';
import { defineGestureTests } from './gestures';
import { defineScreenshotTests } from './screenshots';
import { defineUrlTests } from './urls';
import { defineWaitTests } from './waits';
import { defineWidgetTests } from './widgets';

export type { DriverUnderTest, SuiteEnv } from '../agent';

const T = 45_000;

export function defineActionSuite(driver: DriverUnderTest): void {
  describe(`action suite on ${driver.label}`, () => {
    let agent: Agent | undefined;
    const a = (): Agent => {
      if (!agent) throw new Error(`${driver.label} did not start`);
      return agent;
    };
    beforeAll(async () => {
      agent = new Agent(await driver.start());
      // diff.ts presses "Pay now", widgets.ts a dialog's "Delete all items": a person allowed both.
      allowClasses(agent.cli.home, ['submit', 'delete']);
    }, 120_000);

    defineReadTests(a);
    defineInteractionTests(a);
    defineFlowTests(a);
    defineWidgetTests(a);
    defineGestureTests(a);
    defineUrlTests(a);
    defineWaitTests(a);
    defineDiffTests(a);
    defineScreenshotTests(a);
  });
}

function defineReadTests(a: () => Agent): void {
  it(
    'reads text, mints ln handles for links and el handles for elements, and inspects one',
    async () => {
      const s = await a().session('list.html');
      const text = await a().text(s);
      expect(text).toContain('Items');
      expect(text).toContain('Item 1 description of item number 1');

      const links = await a().links(s);
      const item = links.find((l) => l.text === 'Item 7');
      expect(item?.handle).toMatch(/^ln\d+$/);
      expect(item?.href).toBe(a().url('item/7'));
      expect(links.some((l) => l.text === 'Hidden link')).toBe(false);

      await a().cli.ok(['navigate', '-s', s, a().url('forms.html')]);
      const elements = await a().elements(s);
      const name = elements.find((e) => e.name === 'Full name');
      expect(name).toMatchObject({ tag: 'input', role: 'textbox' });
      expect(name?.handle).toMatch(/^el\d+$/);
      const inspected = await a().inspect(s, String(name?.handle));
      expect(inspected).toMatchObject({ tag: 'input', name: 'Full name', visible: true, enabled: true });
      const readonly = await a().inspect(s, await a().element(s, 'Read only'));
      expect(readonly.value).toBe('fixed');
      await a().close(s);
    },
    T,
  );

  it(
    'prints a snapshot with handles and saves a real PNG screenshot',
    async () => {
      const s = await a().session('forms.html');
      const snapshot = await a().cli.ok<{ snapshot: string; title: string }>(['snapshot', '-s', s]);
      expect(snapshot.title).toBe('Forms');
      expect(snapshot.snapshot).toContain('Sign up');
      expect(snapshot.snapshot).toMatch(/"Create account" \[el\d+\]/);

      const out = join(a().cli.home, `shot-${s}.png`);
      const shot = await a().cli.ok<{ path: string; width: number; height: number }>([
        'screenshot',
        '-s',
        s,
        '--out',
        out,
      ]);
      expect(shot.path).toBe(out);
      const size = pngSize(out);
      expect(size).toEqual({ width: shot.width, height: shot.height });
      expect(size.width).toBeGreaterThan(200);
      expect(size.height).toBeGreaterThan(200);

      await a().cli.ok(['navigate', '-s', s, a().url('long.html')]);
      const full = join(a().cli.home, `full-${s}.png`);
      await a().cli.ok(['screenshot', '-s', s, '--full-page', '--out', full]);
      // long.html is over 5000 px tall: a full-page capture is taller than any viewport.
      expect(pngSize(full).height).toBeGreaterThan(5000);
      await a().close(s);
    },
    T,
  );

  it(
    'keeps the page script out of a hostile page’s reach: its forged page script is never called and it sees nothing of ours',
    async () => {
      // forged-page-script.html puts its own __bproxyPage (answering reads with forged words) and a
      // ledger on its window before anything loads, and its button reports what the page then sees.
      const s = await a().session('forged-page-script.html');
      const before = await a().text(s);
      expect(before).toContain('Nothing to see here but this paragraph.');
      expect(before).toContain('not checked');
      expect(before).not.toContain('FORGED');
      await a().cli.ok(['click', '-s', s, await a().element(s, 'Check what the page can see')]);
      const after = await a().text(s);
      expect(after).not.toContain('FORGED');
      expect(after).toContain(
        'forgery replaced: no; forgery called: 0; ledger entries: 0; other bproxy globals: none',
      );
      await a().close(s);
    },
    T,
  );

  it(
    'leaves text a person cannot see out of text and snapshot, and says how many runs it left out',
    async () => {
      const s = await a().session('hidden-text.html');
      const text = await a().cli.ok<{ text: string; hiddenBlocks?: number }>(['text', '-s', s]);
      expect(leaked(text.text, [...UNSEEN_TRICKS, ...UNRENDERED_TRICKS])).toEqual([]);
      expect(lost(text.text)).toEqual([]);
      // Every trick, and the close button's screen-reader label, which is free text here.
      expect(text.hiddenBlocks).toBe(UNSEEN_TRICKS.length + 1);

      const whole = await a().cli.ok<{ snapshot: string; hiddenBlocks?: number }>(['snapshot', '-s', s]);
      // A snapshot of the body keeps prose, so a sentence left in would show.
      const body = await a().cli.ok<{ snapshot: string; hiddenBlocks?: number }>([
        'snapshot',
        '-s',
        s,
        '--selector',
        'body',
        '--max-chars',
        '100000',
      ]);
      for (const r of [whole, body]) {
        expect(r.snapshot).not.toContain('SECRET');
        expect(r.hiddenBlocks).toBe(UNSEEN_TRICKS.length);
        // The screen-reader label still names the icon button it belongs to.
        expect(r.snapshot).toMatch(/button "Close the panel" \[el\d+\]/);
      }
      expect(lost(body.snapshot)).toEqual([]);
      await a().close(s);
    },
    T,
  );
}

function defineInteractionTests(a: () => Agent): void {
  it(
    'fills and clicks by handle, and the submitted form shows the values',
    async () => {
      const s = await a().session('forms.html');
      const [name, terms, submit] = await a().handles(s, 'Full name', 'I accept the terms', 'Create account');
      await a().cli.ok(['fill', '-s', s, name, 'Ada Lovelace']);
      expect((await a().inspect(s, name)).value).toBe('Ada Lovelace');
      await a().cli.ok(['click', '-s', s, terms]);
      expect((await a().inspect(s, terms)).checked).toBe(true);
      const clicked = await a().cli.ok<{ navigated: boolean }>(['click', '-s', s, submit]);
      expect(clicked.navigated).toBe(false);
      const text = await a().text(s);
      expect(text).toContain('Submitted: name=Ada Lovelace');
      expect(text).toContain('terms=on');
      await a().close(s);
    },
    T,
  );

  it(
    'follows a navigation a field starts when fill changes it, and says so',
    async () => {
      const s = await a().session('fill-navigates.html');
      const filled = await a().cli.ok<{ navigated: boolean; url: string; title: string }>([
        'fill',
        '-s',
        s,
        await a().element(s, 'Query'),
        'books',
      ]);
      expect(filled).toMatchObject({ navigated: true, title: 'Extension done' });
      expect(filled.url).toContain('q=books');
      expect(await a().text(s)).toContain('query: ?q=books');
      await a().close(s);
    },
    T,
  );

  it(
    'types key by key into a controlled field, and Enter submits the form',
    async () => {
      const s = await a().session('forms.html');
      await a().cli.ok(['type', '-s', s, 'abc', '--into', await a().element(s, 'Controlled')]);
      // The page only updates its state from real input events, as a React controlled input does.
      expect(await a().text(s)).toContain('state: abc');

      await a().cli.ok(['type', '-s', s, 'Grace', '--selector', '#name']);
      await a().cli.ok(['press', '-s', s, 'Enter']);
      expect(await a().text(s)).toContain('Submitted: name=Grace');
      await a().close(s);
    },
    T,
  );

  it(
    'selects options by value and by label, single and multiple',
    async () => {
      const s = await a().session('forms.html');
      const country = await a().element(s, 'Country');
      // A select reads as the label of its chosen option, as a person sees it.
      await a().cli.ok(['select', '-s', s, country, 'de']);
      expect((await a().inspect(s, country)).value).toBe('Germany');
      await a().cli.ok(['select', '-s', s, '--selector', '#country', 'France']);
      expect((await a().inspect(s, country)).value).toBe('France');
      await a().cli.ok(['select', '-s', s, '--selector', '#toppings', 'cheese', 'Olives']);
      await a().cli.ok(['click', '-s', s, '--selector', '#submit']);
      const text = await a().text(s);
      expect(text).toContain('country=fr');
      expect(text).toContain('toppings=cheese, toppings=olives');
      await a().close(s);
    },
    T,
  );

  it(
    'scrolls the page by an amount, to the bottom, back up and to an element',
    async () => {
      const s = await a().session('long.html');
      type Pos = { x: number; y: number; atTop: boolean; atBottom: boolean };
      const down = await a().cli.ok<Pos>(['scroll', '-s', s, 'down', '--amount', '1000']);
      expect(down).toMatchObject({ y: 1000, atTop: false, atBottom: false });
      const bottom = await a().cli.ok<Pos>(['scroll', '-s', s, '--to', 'bottom']);
      expect(bottom.atBottom).toBe(true);
      expect(bottom.y).toBeGreaterThan(4000);
      const top = await a().cli.ok<Pos>(['scroll', '-s', s, '--to', 'top']);
      expect(top).toMatchObject({ y: 0, atTop: true });
      const button = await a().element(s, 'Bottom button');
      expect((await a().inspect(s, button)).visible).toBe(true);
      await a().cli.ok(['scroll', '-s', s, button, '--to', 'element']);
      const inspected = await a().cli.ok<{ inViewport: boolean }>(['inspect', '-s', s, button]);
      expect(inspected.inViewport).toBe(true);
      await a().close(s);
    },
    T,
  );

  it(
    'hovers an element and the page reacts to the pointer',
    async () => {
      const s = await a().session('ext-form.html');
      expect(await a().text(s)).not.toContain('hovered');
      await a().cli.ok(['hover', '-s', s, '--selector', '#hover-target']);
      expect(await a().text(s)).toContain('hovered');
      await a().close(s);
    },
    T,
  );

  it(
    'clicks a button inside a shadow root and fills its field',
    async () => {
      const s = await a().session('shadow.html');
      const [button, field] = await a().handles(s, 'Shadow button', 'Inner field');
      await a().cli.ok(['click', '-s', s, button]);
      await a().cli.ok(['click', '-s', s, button]);
      expect(await a().text(s)).toContain('Shadow clicks: 2');
      await a().cli.ok(['fill', '-s', s, field, 'inside']);
      expect((await a().inspect(s, field)).value).toBe('inside');
      await a().close(s);
    },
    T,
  );

  it(
    'clicks a button inside a same-origin iframe and lists the cross-origin one',
    async () => {
      const s = await a().session('iframe.html');
      const result = await a().cli.ok<{
        elements: { handle: string; name: string }[];
        crossOriginFrames?: unknown[];
      }>(['elements', '-s', s]);
      expect(result.crossOriginFrames).toHaveLength(1);
      const button = result.elements.find((e) => e.name === 'Frame button');
      expect(button?.handle).toMatch(/^el\d+$/);
      await a().cli.ok(['click', '-s', s, String(button?.handle)]);
      const snapshot = await a().cli.ok<{ snapshot: string }>(['snapshot', '-s', s]);
      expect(snapshot.snapshot).toContain('frame clicked');
      await a().close(s);
    },
    T,
  );

  it(
    'drives a single-page app: a pushState link, a form in the new view, history back',
    async () => {
      const s = await a().session('spa.html');
      const clicked = await a().cli.ok<{ url: string; title: string }>([
        'click',
        '-s',
        s,
        await a().link(s, 'Settings'),
      ]);
      expect(clicked.url).toBe(a().url('spa/settings'));
      await a().cli.ok(['fill', '-s', s, await a().element(s, 'Nickname'), 'Ada']);
      await a().cli.ok(['click', '-s', s, await a().element(s, 'Save')]);
      expect(await a().text(s)).toContain('Saved Ada');
      const back = await a().cli.ok<{ url: string }>(['back', '-s', s]);
      expect(back.url).toBe(a().url('spa.html'));
      expect(await a().text(s)).toContain('Welcome home.');
      await a().close(s);
    },
    T,
  );
}
