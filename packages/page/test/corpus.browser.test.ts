/**
 * Reads over the long pages of the project corpus (tests/fixtures/corpus): what a snapshot of a big
 * page costs and holds, and what `text` keeps and leaves out on a page written to hide things.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { HANDLES_PER_READ, type SnapshotDriverResult } from '@bproxy/protocol';
import { CORPUS, ok, open, usePageFixtures } from './harness';

const env = usePageFixtures();
const corpusUrl = (name: string): string => `${env.server.origin}/corpus/${name}`;

interface TextRead {
  text: string;
  totalChars: number;
  hiddenBlocks?: number;
}

describe('snapshot on the corpus pages', () => {
  it('caps the default snapshot, pages the whole outline, and hands out a handle per visible link', async () => {
    const names = (await readdir(CORPUS)).filter((n) => n.endsWith('.html')).sort();
    expect(names).toHaveLength(8);
    for (const name of names) {
      const page = await open(env.browser.context, corpusUrl(name));
      const first = await ok<SnapshotDriverResult>(page, 'snapshot');
      // The default part holds at most 12 000 characters of outline.
      expect(first.snapshot.length, name).toBeLessThanOrEqual(12_000);
      const parts: SnapshotDriverResult[] = [];
      for (let offset: number | undefined = 0; offset !== undefined && parts.length < 20;) {
        const part: SnapshotDriverResult = await ok<SnapshotDriverResult>(page, 'snapshot', {
          maxChars: 1_000_000,
          offset,
        });
        parts.push(part);
        offset = part.nextOffset;
      }
      expect(parts.at(-1)?.nextOffset, name).toBeUndefined();
      for (const part of parts)
        for (const kind of ['el', 'ln'])
          expect(part.refs.filter((r) => r.kind === kind).length, name).toBeLessThanOrEqual(HANDLES_PER_READ);
      const links = parts.flatMap((p) => p.refs).filter((r) => r.kind === 'ln').length;
      // Every link with a box that is not visibility:hidden gets a handle (the recipe page's 60 links in
      // closed submenus get none).
      const visibleLinks = await page.evaluate(
        () =>
          Array.from(document.querySelectorAll('a[href]')).filter((a) => {
            const box = a.getBoundingClientRect();
            return box.width > 0 && box.height > 0 && getComputedStyle(a).visibility !== 'hidden';
          }).length,
      );
      expect(links, name).toBe(visibleLinks);
      // The whole outline stays a small fraction of the page's HTML (the prose waits for `text`).
      const html = await page.evaluate(() => document.documentElement.outerHTML.length);
      const outline = parts.reduce((sum, p) => sum + p.snapshot.length, 0);
      // Measured: 5 % (product page) to 27 % (news front page, all headlines are links); the article,
      // mostly prose, 11 % (36 % when its sentences were kept in the outline).
      expect(outline / html, name).toBeLessThan(0.3);
      if (name === 'article-longread.html') expect(outline / html).toBeLessThan(0.15);
      await page.close();
    }
  }, 120_000);
});

describe('text on the corpus pages', () => {
  it('reads a long article whole: every section heading and every footnote', async () => {
    const page = await open(env.browser.context, corpusUrl('article-longread.html'));
    const read = await ok<TextRead>(page, 'text', { maxChars: 1_000_000 });
    const want = await page.evaluate(() => ({
      headings: Array.from(document.querySelectorAll('article h2')).map((h) => h.textContent ?? ''),
      notes: Array.from(document.querySelectorAll('.footnotes li')).map((li) =>
        (li.textContent ?? '').replace(' ↩', ''),
      ),
    }));
    expect(want.headings.length).toBeGreaterThanOrEqual(14);
    expect(want.notes.length).toBeGreaterThan(5);
    for (const h of want.headings) expect(read.text).toContain(h);
    for (const n of want.notes) expect(read.text).toContain(n.trim());
    expect(read.totalChars).toBeGreaterThan(50_000);
    await page.close();
  }, 60_000);

  it('leaves out what a person cannot see on the page and keeps what they can', async () => {
    const page = await open(env.browser.context, corpusUrl('recipe-hidden-parts.html'));
    const read = await ok<TextRead>(page, 'text', { maxChars: 1_000_000 });
    const texts = await page.evaluate(() => {
      const of = (selector: string) =>
        Array.from(document.querySelectorAll(selector)).map((el) => (el.textContent ?? '').trim());
      return {
        hidden: [
          ...of('p[hidden]'),
          ...of('.invisible'),
          ...of('.faded'),
          ...of('.zero p'),
          ...of('.covered p'), // in the first screen: covered text is looked for in the viewport
          ...of('.offscreen'),
          ...of('.modal-backdrop h2'),
          ...of('.mega ul ul a').slice(0, 5),
        ],
        seen: [...of('article h1'), ...of('article ol h3'), ...of('.meta li'), ...of('.cookie button')],
      };
    });
    expect(texts.hidden.length).toBeGreaterThanOrEqual(12);
    for (const t of texts.hidden) expect(read.text, t).not.toContain(t);
    for (const t of texts.seen) expect(read.text, t).toContain(t);
    expect(read.hiddenBlocks ?? 0).toBeGreaterThan(0);
    await page.close();
  }, 60_000);
});
