/**
 * Text a person cannot see stays out of `text`, `snapshot` and `inspect`: the fixture hides one SECRET
 * sentence per trick between SEEN sentences that must stay, and the reads count what they left out.
 */
import { describe, expect, it } from 'vitest';
import type { ActionResult, SnapshotDriverResult } from '@bproxy/protocol';
import { MAX_HIT_TESTS } from '../src/dom/unseen';
import { leaked, lost, UNRENDERED_TRICKS, UNSEEN_TRICKS } from '../../../tests/fixtures/hidden-text';
import { ok, open, usePageFixtures, withHtml } from './harness';

type TextResult = ActionResult<'text'>;
type InspectResult = ActionResult<'inspect'>;

const env = usePageFixtures();
const url = (name: string): string => `${env.server.origin}/${name}`;

describe('hidden text', () => {
  it('leaves text hidden by each trick out of text, keeps every visible sentence and counts the hidden runs', async () => {
    const page = await open(env.browser.context, url('hidden-text.html'));
    const r = await ok<TextResult>(page, 'text');
    expect(leaked(r.text, [...UNSEEN_TRICKS, ...UNRENDERED_TRICKS])).toEqual([]);
    expect(lost(r.text)).toEqual([]);
    // The twenty tricks, and the close button's screen-reader label (free text here, its name elsewhere).
    expect(r.hiddenBlocks).toBe(UNSEEN_TRICKS.length + 1);
    await page.close();
  });

  it('leaves hidden text and headings out of the snapshot, counts them, and names a button by its screen-reader label', async () => {
    const page = await open(env.browser.context, url('hidden-text.html'));
    // With a target the snapshot keeps prose, so every sentence would show if it were not left out.
    const whole = await ok<SnapshotDriverResult>(page, 'snapshot', { maxChars: 100_000 });
    const body = await ok<SnapshotDriverResult>(page, 'snapshot', {
      target: { selector: 'body' },
      maxChars: 100_000,
    });
    for (const r of [whole, body]) {
      expect(leaked(r.snapshot, UNSEEN_TRICKS)).toEqual([]);
      expect(r.snapshot).not.toContain('SECRET');
      expect(r.hiddenBlocks).toBe(UNSEEN_TRICKS.length);
      expect(r.snapshot).toMatch(/button "Close the panel"/);
    }
    expect(lost(body.snapshot)).toEqual([]);
    const filtered = await ok<SnapshotDriverResult>(page, 'snapshot', { contains: 'SECRET' });
    expect(filtered.snapshot).toBe('');
    await page.close();
  });

  it('leaves hidden text out of what inspect says an element holds', async () => {
    await withHtml(
      env.browser.context,
      '<div id="card"><p>Seen words.</p><p style="position:absolute;left:-5000px">Unseen words.</p></div>',
      async (page) => {
        const r = await ok<InspectResult>(page, 'inspect', { target: { selector: '#card' } });
        expect(r.text).toContain('Seen words.');
        expect(r.text).not.toContain('Unseen words.');
      },
    );
  });

  it('says nothing about hidden text on a page that hides none', async () => {
    await withHtml(
      env.browser.context,
      '<h1>Title</h1><p>Some words.</p><p style="color:#888">Grey words.</p>',
      async (page) => {
        const t = await ok<TextResult>(page, 'text');
        const s = await ok<SnapshotDriverResult>(page, 'snapshot');
        expect(t.text).toContain('Grey words.');
        expect('hiddenBlocks' in t).toBe(false);
        expect('hiddenBlocks' in s).toBe(false);
      },
    );
    // A right-to-left page scrolls to the left: words there are on the page.
    await withHtml(
      env.browser.context,
      '<html dir="rtl"><body><div style="width:3000px;text-align:left">Far left words.</div></body></html>',
      async (page) => {
        const t = await ok<TextResult>(page, 'text');
        expect(t.text).toContain('Far left words.');
        expect('hiddenBlocks' in t).toBe(false);
      },
    );
  });

  it('bounds the hit tests one read spends on covered text', async () => {
    // A thousand lines in the viewport, each under an opaque box: only the first ones can be checked.
    const rows = Array.from(
      { length: 1000 },
      (_, i) =>
        `<div style="position:relative;display:inline-block;font-size:8px"><span>r${i}</span><i style="position:absolute;inset:0;background:#fff"></i></div>`,
    ).join('');
    await withHtml(env.browser.context, `<div style="width:990px">${rows}</div>`, async (page) => {
      const r = await ok<TextResult>(page, 'text');
      // Two hit tests tell a covered row: the first rows are left out (one run), the rest read as seen.
      const words = r.text.split(/\s+/);
      expect(r.hiddenBlocks).toBe(1);
      expect(words).not.toContain('r0');
      expect(words).toContain('r999');
      expect(words).toHaveLength(1000 - MAX_HIT_TESTS / 2);
    });
  });
});
