import { describe, expect, it } from 'vitest';
import {
  HANDLES_PER_READ,
  SNAPSHOT_REF_CLOSE,
  SNAPSHOT_REF_OPEN,
  type ElementsDriverResult,
  type LinksDriverResult,
  type SnapshotDriverResult,
} from '@bproxy/protocol';
import { fails, ok, open, usePageFixtures, withHtml } from './harness';

const env = usePageFixtures();

const url = (name: string): string => `${env.server.origin}/${name}`;
const PLACEHOLDER = new RegExp(`${SNAPSHOT_REF_OPEN}(\\d+)${SNAPSHOT_REF_CLOSE}`, 'g');

describe('text', () => {
  it('returns visible text only, through shadow roots, skipping scripts and hidden nodes', async () => {
    const page = await open(env.browser.context, url('shadow.html'));
    const r = await ok<{ text: string; truncated: boolean }>(page, 'text');
    expect(r.text).toContain('Shadow DOM');
    expect(r.text).toContain('Text inside the shadow root');
    expect(r.text).toContain('Slotted title');
    expect(r.text).not.toContain('customElements');
    expect(r.truncated).toBe(false);
    await page.close();
  });

  it('pages long text with offset and nextOffset', async () => {
    const page = await open(env.browser.context, url('list.html'));
    const first = await ok<{ text: string; totalChars: number; truncated: boolean; nextOffset?: number }>(
      page,
      'text',
      { maxChars: 500 },
    );
    expect(first.text.length).toBe(500);
    expect(first.truncated).toBe(true);
    expect(first.nextOffset).toBe(500);
    const second = await ok<{ text: string; totalChars: number }>(page, 'text', {
      maxChars: 500,
      offset: 500,
    });
    const whole = await ok<{ text: string }>(page, 'text', { maxChars: 100_000 });
    expect(first.text + second.text).toBe(whole.text.slice(0, 1000));
    expect(whole.text).not.toContain('Hidden link');
    await page.close();
  });

  it('leaves a cross-origin frame a person cannot see to no driver: tiny, transparent, hidden or off the page', async () => {
    const page = await open(env.browser.context, url('iframe-hidden.html'));
    for (const action of ['text', 'elements', 'links', 'snapshot'] as const) {
      const r = await ok<{ crossOriginFrames?: unknown; frameSlots?: { src: string }[] }>(page, action);
      expect(r.frameSlots?.map((f) => f.src)).toEqual(['http://127.0.0.2:1/shown']);
      // Named as not shown where the read met them (a read that skips transparent content skips them too).
      const unread = (r.crossOriginFrames ?? []) as { src: string; reason?: string }[];
      expect(unread.every((f) => f.reason === 'not shown')).toBe(true);
      expect(unread.map((f) => f.src)).toContain('http://127.0.0.2:1/pixel');
      expect(unread.map((f) => f.src)).not.toContain('http://127.0.0.2:1/shown');
    }
    await page.close();
  });

  it('reads a same-origin iframe and reports the cross-origin one', async () => {
    const page = await open(env.browser.context, url('iframe.html'));
    const r = await ok<{ text: string; crossOriginFrames?: unknown; frameSlots?: unknown }>(page, 'text');
    expect(r.text).toContain('Inside the frame');
    // The cross-origin frame on show is left to the driver, which reads it in the frame itself.
    expect(r.frameSlots).toEqual([
      { slot: 0, ref: expect.stringMatching(/^r\d+$/), src: 'http://127.0.0.2:1/' },
    ]);
    expect(r.crossOriginFrames).toBeUndefined();
    await page.close();
  });
});

describe('links', () => {
  it('lists visible links with absolute hrefs, refs and selectors, honouring limit', async () => {
    const page = await open(env.browser.context, url('list.html'));
    const r = await ok<LinksDriverResult>(page, 'links', { limit: 10 });
    expect(r.links).toHaveLength(10);
    expect(r.truncated).toBe(true);
    expect(r.total).toBe(304);
    expect(r.links[0]).toMatchObject({ text: 'Home', href: `${env.server.origin}/` });
    expect(r.links.every((l) => /^r\d+$/.test(l.ref))).toBe(true);
    const filtered = await ok<LinksDriverResult>(page, 'links', { contains: 'item 29' });
    expect(filtered.links.map((l) => l.text)).toEqual([
      'Item 29',
      'Item 290',
      'Item 291',
      'Item 292',
      'Item 293',
      'Item 294',
      'Item 295',
      'Item 296',
      'Item 297',
      'Item 298',
      'Item 299',
    ]);
    await page.close();
  });
});

describe('elements', () => {
  it('describes every visible form control with role, name, value, options and state', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    const r = await ok<ElementsDriverResult>(page, 'elements');
    const byName = new Map(r.elements.map((e) => [e.name, e]));
    expect(byName.get('Full name')).toMatchObject({ role: 'textbox', tag: 'input', type: 'text' });
    expect(byName.get('Email')).toMatchObject({ role: 'textbox', type: 'email' });
    expect(byName.get('Password')).toMatchObject({ type: 'password' });
    expect(byName.get('Age')).toMatchObject({ role: 'spinbutton' });
    expect(byName.get('Country')).toMatchObject({
      role: 'combobox',
      options: ['Choose…', 'France', 'Germany', 'Japan'],
    });
    expect(byName.get('I accept the terms')).toMatchObject({ role: 'checkbox', checked: false });
    expect(byName.get('Free')).toMatchObject({ role: 'radio', checked: true });
    expect(byName.get('Notes')).toMatchObject({ role: 'textbox', tag: 'div' });
    expect(byName.get('Create account')).toMatchObject({ role: 'button', selector: '#submit' });
    expect(r.elements.some((e) => e.type === 'hidden')).toBe(false);
    await page.close();
  });

  it('filters by role and contains, and scopes to a target subtree', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    const buttons = await ok<ElementsDriverResult>(page, 'elements', { role: 'button' });
    expect(buttons.elements.map((e) => e.name)).toEqual(['Create account']);
    const contains = await ok<ElementsDriverResult>(page, 'elements', { contains: 'TERMS' });
    expect(contains.elements.map((e) => e.name)).toEqual(['I accept the terms']);
    const scoped = await ok<ElementsDriverResult>(page, 'elements', { target: { selector: 'fieldset' } });
    expect(scoped.elements.map((e) => e.name)).toEqual(['Free', 'Pro']);
    await page.close();
  });

  it('finds controls inside an open shadow root with a piercing selector', async () => {
    const page = await open(env.browser.context, url('shadow.html'));
    const r = await ok<ElementsDriverResult>(page, 'elements');
    const button = r.elements.find((e) => e.name === 'Shadow button');
    expect(button?.selector).toBe('#widget >>> #inner-button');
    await page.close();
  });

  it('marks disabled controls and leaves out hidden ones', async () => {
    const page = await open(env.browser.context, url('covered.html'));
    const r = await ok<ElementsDriverResult>(page, 'elements');
    expect(r.elements.map((e) => e.name)).toEqual(['Under the overlay', 'Disabled', 'Reachable']);
    expect(r.elements[1]?.disabled).toBe(true);
    await page.close();
  });
});

describe('inspect', () => {
  it('describes one element with box, visibility and value', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await page.fill('#name', 'Ada');
    const r = await ok<{
      tag: string;
      role: string;
      name: string;
      attributes: Record<string, string>;
      visible: boolean;
      enabled: boolean;
      value?: string;
      box: { width: number };
    }>(page, 'inspect', { target: { selector: '#name' } });
    expect(r).toMatchObject({
      tag: 'input',
      role: 'textbox',
      name: 'Full name',
      visible: true,
      enabled: true,
      value: 'Ada',
    });
    expect(r.attributes['placeholder']).toBe('Jane Doe');
    expect(r.box.width).toBeGreaterThan(0);
    const missing = await fails(page, 'inspect', { target: { selector: '#nope' } });
    expect(missing.code).toBe('ELEMENT_NOT_FOUND');
    await page.close();
  });
});

describe('snapshot', () => {
  it('renders one line per landmark, heading and control, with placeholders indexing refs', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    const r = await ok<SnapshotDriverResult>(page, 'snapshot');
    const lines = r.snapshot.split('\n');
    expect(lines[0]).toBe('main');
    expect(lines).toContain('  h1 "Sign up"');
    expect(r.snapshot).toMatch(
      new RegExp(`^    textbox "Full name" ${SNAPSHOT_REF_OPEN}0${SNAPSHOT_REF_CLOSE}$`, 'm'),
    );
    expect(r.snapshot).toMatch(/^ {4}checkbox "I accept the terms" \uE000\d+\uE001$/m);
    expect(r.snapshot).toMatch(/^ {4}radio "Free" checked \uE000\d+\uE001$/m);
    const indexes = [...r.snapshot.matchAll(PLACEHOLDER)].map((m) => Number(m[1]));
    expect(indexes).toEqual(r.refs.map((_, i) => i));
    expect(r.refs.every((ref) => ref.kind === 'el')).toBe(true);
    expect(r.refs).toHaveLength(18);
    await page.close();
  });

  it('shows values a person would see and never a password', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    await page.fill('#email', 'a@b.c');
    await page.fill('#password', 'hunter2');
    const r = await ok<SnapshotDriverResult>(page, 'snapshot');
    expect(r.snapshot).toMatch(/textbox "Email" value="a@b.c" \uE000\d+\uE001/);
    expect(r.snapshot).not.toContain('hunter2');
    await page.close();
  });

  it('marks links as ln refs and groups sibling links on one line', async () => {
    const page = await open(env.browser.context, url('list.html'));
    const r = await ok<SnapshotDriverResult>(page, 'snapshot', { maxChars: 100_000 });
    expect(r.snapshot).toMatch(
      /^banner\n {2}navigation "Main"\n {4}links: \[Home\]\uE0000\uE001 \[List\]\uE0001\uE001 \[Forms\]\uE0002\uE001$/m,
    );
    // The sentence is long text, left out of a whole-page snapshot; its link stays addressable.
    expect(r.snapshot).not.toContain('This page lists many items');
    expect(r.snapshot).toMatch(/^ {2}link "inline text links" \uE000\d+\uE001$/m);
    expect(r.refs[0]).toMatchObject({ kind: 'ln' });
    // 304 links: the first part holds the 200 the daemon mints handles for, the next one the rest.
    expect(r.refs.filter((ref) => ref.kind === 'ln')).toHaveLength(HANDLES_PER_READ);
    const rest = await ok<SnapshotDriverResult>(page, 'snapshot', {
      maxChars: 100_000,
      offset: r.nextOffset,
    });
    expect(rest.refs.filter((ref) => ref.kind === 'ln')).toHaveLength(104);
    expect(r.snapshot).not.toContain('Hidden link');
    await page.close();
  });

  it('leaves long text out of a whole-page snapshot, says so, and keeps it with contains or a target', async () => {
    const html = `<main><h1>News</h1>
      <p>${'A long paragraph of prose that an agent reads with text. '.repeat(3)}<a href="#more">Read more</a></p>
      <p>Short status: 3 items</p>
      <div role="alert">${'Your card was declined because the bank could not confirm the payment. '.repeat(2)}</div>
      <dialog open><p>${'This dialog explains what happens next in more than sixty characters. '.repeat(2)}</p><button>OK</button></dialog></main>`;
    await withHtml(env.browser.context, html, async (page) => {
      const whole = await ok<SnapshotDriverResult>(page, 'snapshot');
      const text = whole.snapshot.replace(PLACEHOLDER, '#');
      expect(text).not.toContain('A long paragraph');
      expect(text).toContain('link "Read more" #');
      expect(text).toContain('text: Short status: 3 items');
      // What an alert or a dialog says is kept, however long.
      expect(text).toMatch(/text: Your card was declined because/);
      expect(text).toMatch(/dialog\n {4}text: This dialog explains/);
      expect(whole.notice).toMatch(/^1 long text run \(\d+ chars\) left out: read them with text/);
      const found = await ok<SnapshotDriverResult>(page, 'snapshot', { contains: 'paragraph of prose' });
      expect(found.snapshot).toMatch(/text: A long paragraph of prose.* \[Read more\]\uE0000\uE001/);
      const scoped = await ok<SnapshotDriverResult>(page, 'snapshot', { target: { selector: 'p' } });
      expect(scoped.snapshot).toContain('A long paragraph of prose');
      expect(scoped.notice).toBeUndefined();
    });
  });

  it('ends a part before it would hold more refs of a kind than the daemon mints handles for', async () => {
    const links = Array.from({ length: 450 }, (_, i) => `<a href="#l${i}">L${i}</a>`).join(' ');
    await withHtml(env.browser.context, `<nav>${links}</nav>`, async (page) => {
      const counts: number[] = [];
      for (let offset: number | undefined = 0; offset !== undefined;) {
        const part: SnapshotDriverResult = await ok<SnapshotDriverResult>(page, 'snapshot', {
          maxChars: 1_000_000,
          offset,
        });
        counts.push(part.refs.length);
        offset = part.nextOffset;
      }
      expect(counts.every((n) => n <= HANDLES_PER_READ)).toBe(true);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(450);
    });
  });

  it('cuts at maxChars on a line boundary with a notice and pages on with nextOffset', async () => {
    const page = await open(env.browser.context, url('list.html'));
    const first = await ok<SnapshotDriverResult>(page, 'snapshot', { maxChars: 1000 });
    expect(first.truncated).toBe(true);
    expect(first.snapshot.length).toBeLessThanOrEqual(1000);
    expect(first.notice).toMatch(/offset=\d+/);
    expect(first.notice).toContain('contains=');
    const second = await ok<SnapshotDriverResult>(page, 'snapshot', {
      maxChars: 1000,
      offset: first.nextOffset,
    });
    expect(second.snapshot.length).toBeGreaterThan(0);
    expect(second.snapshot.split('\n')[0]).not.toBe(first.snapshot.split('\n')[0]);
    // Placeholders restart at 0 in every part: refs only hold that part's elements.
    expect([...second.snapshot.matchAll(PLACEHOLDER)][0]?.[1]).toBe('0');
    expect(second.totalChars).toBe(first.totalChars);
    await page.close();
  });

  it('keeps matching lines and their ancestors with contains', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    const r = await ok<SnapshotDriverResult>(page, 'snapshot', { contains: 'country' });
    expect(r.snapshot.replace(PLACEHOLDER, '#')).toBe(
      'main\n  form\n    combobox "Country" value="Choose…" #',
    );
    expect(r.refs).toHaveLength(1);
    await page.close();
  });

  it('scopes to a target subtree', async () => {
    const page = await open(env.browser.context, url('forms.html'));
    const r = await ok<SnapshotDriverResult>(page, 'snapshot', { target: { selector: 'fieldset' } });
    expect(r.snapshot.replace(PLACEHOLDER, '#')).toBe('text: Plan\nradio "Free" checked #\nradio "Pro" #');
    await page.close();
  });

  it('goes through shadow roots and same-origin frames and lists cross-origin frames', async () => {
    const page = await open(env.browser.context, url('iframe.html'));
    const r = await ok<SnapshotDriverResult>(page, 'snapshot');
    expect(r.snapshot.replace(PLACEHOLDER, '#')).toBe(
      'h1 "Frames"\niframe "Same origin"\n  text: Inside the frame\n  button "Frame button" #\niframe "Elsewhere" \uE0020\uE003',
    );
    expect(r.refs[0]?.selector).toBe('#same >>> #frame-button');
    const slots = (r as { frameSlots?: unknown }).frameSlots;
    expect(slots).toEqual([{ slot: 0, ref: expect.stringMatching(/^r\d+$/), src: 'http://127.0.0.2:1/' }]);
    expect(r.crossOriginFrames).toBeUndefined();
    const shadow = await open(env.browser.context, url('shadow.html'));
    const s = await ok<SnapshotDriverResult>(shadow, 'snapshot');
    expect(s.snapshot).toContain('region "Widget"\n  h2 "Slotted title"');
    expect(s.snapshot).toMatch(/button "Shadow button" \uE0001\uE001/);
    await page.close();
    await shadow.close();
  });
});
