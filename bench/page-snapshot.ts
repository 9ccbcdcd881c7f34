/**
 * Snapshot size and speed over the real-world bench pages: serves tests/fixtures/bench-pages, injects the
 * page bundle into headless Chromium and runs `snapshot` with default options on every page.
 * Run: npx tsx bench/page-snapshot.ts [--show name] [--dump dir]
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH, call, launch, open, serveFixtures } from '../packages/page/test/harness';

interface Row {
  name: string;
  bytes: number;
  totalChars: number;
  refs: number;
  ms: number;
  truncated: boolean;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const show = args.includes('--show') ? args[args.indexOf('--show') + 1] : undefined;
  const dump = args.includes('--dump') ? args[args.indexOf('--dump') + 1] : undefined;
  const maxChars = args.includes('--max') ? Number(args[args.indexOf('--max') + 1]) : undefined;
  const names = (await readdir(BENCH))
    .filter((n) => n.endsWith('.html') && (show === undefined || n.startsWith(show)))
    .sort();
  const server = await serveFixtures();
  const browser = await launch();
  const rows: Row[] = [];
  try {
    if (dump) await mkdir(dump, { recursive: true });
    for (const name of names) {
      const page = await open(browser.context, `${server.origin}/bench/${name}`);
      const started = performance.now();
      const result = await call(page, 'snapshot', maxChars === undefined ? {} : { maxChars });
      const ms = performance.now() - started;
      await page.close();
      if (!result.ok) {
        console.error(`${name}: ${result.error.code} ${result.error.message}`);
        continue;
      }
      const data = result.data as {
        snapshot: string;
        totalChars: number;
        refs: unknown[];
        truncated: boolean;
      };
      const bytes = Buffer.byteLength(data.snapshot);
      rows.push({
        name,
        bytes,
        totalChars: data.totalChars,
        refs: data.refs.length,
        ms,
        truncated: data.truncated,
      });
      if (show) console.log(data.snapshot.replace(/\uE000(\d+)\uE001/g, '[$1]'));
      if (dump)
        await writeFile(join(dump, `${name}.txt`), data.snapshot.replace(/\uE000(\d+)\uE001/g, '[$1]'));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const bytes = rows.map((r) => r.bytes).sort((a, b) => a - b);
  const full = rows.map((r) => r.totalChars).sort((a, b) => a - b);
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  console.log(
    `pages: ${rows.length}, truncated at the default cap: ${rows.filter((r) => r.truncated).length}`,
  );
  console.log(
    `snapshot bytes (first part): median ${quantile(bytes, 0.5)}  p90 ${quantile(bytes, 0.9)}  total ${sum(bytes)}`,
  );
  console.log(
    `full outline chars:          median ${quantile(full, 0.5)}  p90 ${quantile(full, 0.9)}  total ${sum(full)}`,
  );
  console.log(
    `time ms:                     median ${quantile(times, 0.5).toFixed(0)}  p90 ${quantile(times, 0.9).toFixed(0)}  total ${sum(times).toFixed(0)}`,
  );
}

await main();
