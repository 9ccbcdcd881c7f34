/**
 * What leaving out text a person cannot see costs on a page corpus, page script only (no
 * daemon): for every page, the whole `text` (maxChars 1 000 000) and the whole snapshot outline
 * (every part), their sizes, how many hidden runs each left out, and the time of one read of each.
 * Pages are served as bench/page-snapshot.ts serves them (outside resources fail fast).
 *
 * Run: npx tsx bench/page-hidden.ts [--pages DIR] [--out file.json] [--dump dir]
 * (pages: `--pages DIR`, else BPROXY_BENCH_PAGES, else the project corpus tests/fixtures/corpus)
 * Two runs (before and after a change, each with --out) compare with --compare before.json after.json:
 * chars and bytes lost or gained per page, and the median and p90 time per read.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SnapshotDriverResult } from '@bproxy/protocol';
import { pageCorpusOrExit } from '../scripts/page-corpus.mjs';
import { call, launch, open, serveFixtures } from '../packages/page/test/harness';

interface Row {
  name: string;
  textChars: number;
  textHidden: number;
  textMs: number;
  snapshotChars: number;
  snapshotHidden: number;
  snapshotMs: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function measure(out: string | undefined, dump: string | undefined): Promise<void> {
  const corpus = pageCorpusOrExit();
  const names = corpus.pages;
  const server = await serveFixtures(corpus.dir);
  const browser = await launch();
  const rows: Row[] = [];
  try {
    if (dump) await mkdir(dump, { recursive: true });
    for (const name of names) {
      const page = await open(browser.context, `${server.origin}/corpus/${name}`);
      // One untimed read first: the first layout of the page is not the read's cost.
      await call(page, 'text', { maxChars: 1_000_000 });
      let started = performance.now();
      const text = await call(page, 'text', { maxChars: 1_000_000 });
      const textMs = performance.now() - started;
      started = performance.now();
      const first = await call(page, 'snapshot', { maxChars: 1_000_000 });
      const snapshotMs = performance.now() - started;
      if (!text.ok || !first.ok) {
        console.error(`${name}: a read failed`);
        await page.close();
        continue;
      }
      const parts = [first.data as SnapshotDriverResult];
      for (let next = parts[0]?.nextOffset; next !== undefined && parts.length < 50;) {
        const part = await call(page, 'snapshot', { maxChars: 1_000_000, offset: next });
        if (!part.ok) break;
        const data = part.data as SnapshotDriverResult;
        parts.push(data);
        next = data.nextOffset;
      }
      await page.close();
      const t = text.data as { text: string; hiddenBlocks?: number };
      rows.push({
        name,
        textChars: t.text.length,
        textHidden: t.hiddenBlocks ?? 0,
        textMs,
        snapshotChars: parts.reduce((sum, p) => sum + p.snapshot.length, 0),
        snapshotHidden: parts[0]?.hiddenBlocks ?? 0,
        snapshotMs,
      });
      if (dump) {
        await writeFile(join(dump, `${name}.text.txt`), t.text);
        await writeFile(join(dump, `${name}.snapshot.txt`), parts.map((p) => p.snapshot).join('\n'));
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (out) await writeFile(out, JSON.stringify(rows, null, 1));
  report(rows);
}

function report(rows: Row[]): void {
  const line = (label: string, xs: number[]): void => {
    const s = [...xs].sort((a, b) => a - b);
    const sum = s.reduce((a, b) => a + b, 0);
    console.log(
      `${label.padEnd(30)} median ${quantile(s, 0.5).toFixed(1)}  p90 ${quantile(s, 0.9).toFixed(1)}  max ${(s.at(-1) ?? 0).toFixed(1)}  total ${sum.toFixed(0)}`,
    );
  };
  console.log(`pages: ${rows.length}`);
  line(
    'text chars',
    rows.map((r) => r.textChars),
  );
  line(
    'text hidden blocks',
    rows.map((r) => r.textHidden),
  );
  line(
    'text ms',
    rows.map((r) => r.textMs),
  );
  line(
    'snapshot chars',
    rows.map((r) => r.snapshotChars),
  );
  line(
    'snapshot hidden blocks',
    rows.map((r) => r.snapshotHidden),
  );
  line(
    'snapshot ms',
    rows.map((r) => r.snapshotMs),
  );
}

async function compare(beforeFile: string, afterFile: string): Promise<void> {
  const before = JSON.parse(await readFile(beforeFile, 'utf8')) as Row[];
  const after = new Map((JSON.parse(await readFile(afterFile, 'utf8')) as Row[]).map((r) => [r.name, r]));
  let textBefore = 0;
  let textAfter = 0;
  let snapBefore = 0;
  let snapAfter = 0;
  const changed: string[] = [];
  const dText: number[] = [];
  const dSnap: number[] = [];
  for (const b of before) {
    const a = after.get(b.name);
    if (a === undefined) continue;
    textBefore += b.textChars;
    textAfter += a.textChars;
    snapBefore += b.snapshotChars;
    snapAfter += a.snapshotChars;
    dText.push(a.textMs - b.textMs);
    dSnap.push(a.snapshotMs - b.snapshotMs);
    if (a.textChars !== b.textChars || a.snapshotChars !== b.snapshotChars)
      changed.push(
        `${b.name.padEnd(40)} text ${b.textChars} → ${a.textChars} (${a.textHidden} hidden)  snapshot ${b.snapshotChars} → ${a.snapshotChars} (${a.snapshotHidden} hidden)`,
      );
  }
  console.log(changed.join('\n'));
  const pct = (x: number, y: number): string => `${(((y - x) / x) * 100).toFixed(2)} %`;
  console.log(`pages changed: ${changed.length} of ${before.length}`);
  console.log(`text chars: ${textBefore} → ${textAfter} (${pct(textBefore, textAfter)})`);
  console.log(`snapshot chars: ${snapBefore} → ${snapAfter} (${pct(snapBefore, snapAfter)})`);
  const med = (xs: number[]): string =>
    quantile(
      [...xs].sort((a, b) => a - b),
      0.5,
    ).toFixed(1);
  const p90 = (xs: number[]): string =>
    quantile(
      [...xs].sort((a, b) => a - b),
      0.9,
    ).toFixed(1);
  console.log(`text read, ms added: median ${med(dText)}, p90 ${p90(dText)}`);
  console.log(`snapshot read, ms added: median ${med(dSnap)}, p90 ${p90(dSnap)}`);
}

const args = process.argv.slice(2);
const value = (flag: string): string | undefined =>
  args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
const compareWith = value('--compare');
if (compareWith !== undefined) await compare(compareWith, args[args.indexOf('--compare') + 2] ?? '');
else await measure(value('--out'), value('--dump'));
