#!/usr/bin/env node
// The project's own page corpus: realistic long pages written here — an article, a documentation
// page, a shop listing and a product page, a news front page, a forum thread, a settings dashboard and
// a page with hidden and off-screen parts — generated from seeded word lists (scripts/corpus/), so
// they are the same on every machine. `node scripts/make-corpus.mjs` writes them to
// tests/fixtures/corpus; `--check` exits 1 when a page there differs from what the generator makes.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hiddenParts, product, settings, shopListing } from './corpus/acting.mjs';
import { article, docs, forum, news } from './corpus/reading.mjs';
import { rng } from './corpus/text.mjs';
import { DEFAULT_CORPUS } from './page-corpus.mjs';

/** Each page's file name and builder; the name is also its seed. */
const PAGES = [
  ['article-longread.html', article],
  ['docs-reference.html', docs],
  ['forum-thread.html', forum],
  ['news-front.html', news],
  ['recipe-hidden-parts.html', hiddenParts],
  ['settings-dashboard.html', settings],
  ['shop-listing.html', shopListing],
  ['shop-product.html', product],
];

/** The corpus as the generator makes it: file name → HTML. */
export function renderCorpus() {
  return new Map(PAGES.map(([name, build]) => [name, build(rng(name))]));
}

/** The pages in `dir` that are missing, differ from the generator's, or are not the generator's. */
export function corpusDifferences(dir = DEFAULT_CORPUS) {
  const want = renderCorpus();
  const have = readdirSync(dir).filter((n) => n.endsWith('.html'));
  const out = [];
  for (const [name, html] of want) {
    if (!have.includes(name)) out.push(`${name}: missing`);
    else if (readFileSync(join(dir, name), 'utf8') !== html) out.push(`${name}: differs from the generator`);
  }
  for (const name of have) if (!want.has(name)) out.push(`${name}: not made by the generator`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const diffs = corpusDifferences();
    for (const d of diffs) console.error(d);
    process.exit(diffs.length === 0 ? 0 : 1);
  }
  for (const [name, html] of renderCorpus()) {
    writeFileSync(join(DEFAULT_CORPUS, name), html);
    console.log(`${name}  ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB`);
  }
}
