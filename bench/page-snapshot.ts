/**
 * Snapshot size and speed over a page corpus, page script only (no daemon): serves the pages of
 * `--pages DIR` (or BPROXY_BENCH_PAGES; by default the project's own, tests/fixtures/corpus) with
 * `Content-Security-Policy: default-src 'self' 'unsafe-inline' data:` so outside resources fail fast,
 * injects the page bundle into headless Chromium and runs `snapshot` on every page.
 *
 * Bytes are counted as an agent receives them over MCP: the `url "title"` line, then the outline with
 * each placeholder replaced by a handle numbered from 1 per kind ([el1], [ln1], as a fresh session
 * mints them), then the notice. Two reads per page: the default snapshot (its first part, at most
 * 12 000 characters), and the whole outline — maxChars 1 000 000 as `npm run bench:peers` asks, every
 * part summed (a part also ends before it would hold more than 200 handles of a kind).
 *
 * The untrusted-data fence an MCP reply puts around the page text (@bproxy/tools/untrusted) is
 * counted apart: the bytes it adds to each default snapshot. The flags of the page layer
 * (`(hidden: …)`, `(aria-hidden: shows …)`, `(aimed at AI)`, packages/page/src/dom/page-flags.ts) are
 * counted over every part.
 *
 * With --approvals, approvals' recognition (packages/page/src/dom/sensitive.ts) is run on every handle
 * of the whole outline as the daemon reads it before a click, and on every form field among them as
 * before Enter (bench/page-approvals.ts): every classed control is listed (with --context, its
 * attributes too), then the counts per class.
 *
 * Run: npx tsx bench/page-snapshot.ts [--pages DIR] [--rows] [--show name] [--dump dir] [--flags]
 * [--approvals [--context]] (--rows prints one line per page, --flags every flagged line)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SnapshotDriverResult } from '@bproxy/protocol';
import { fenceUntrusted } from '../packages/tools/src/untrusted';
import { pageCorpusOrExit } from '../scripts/page-corpus.mjs';
import { call, launch, open, serveFixtures } from '../packages/page/test/harness';
import { readApprovals, reportApprovals, type ApprovalsRow } from './page-approvals';

interface Row {
  name: string;
  /** The default snapshot, as received. */
  bytes: number;
  /** Every part of the whole outline, as received. */
  wholeBytes: number;
  parts: number;
  handles: number;
  ms: number;
  /** Bytes the untrusted-data fence adds to the default snapshot's reply. */
  fence: number;
  /** Flagged lines of the whole outline: `(hidden: …)`, `(aria-hidden: shows …)` and `(aimed at AI)`. */
  hidden: string[];
  ariaHidden: string[];
  aimed: string[];
  /** With --approvals: what the recognition classed. */
  approvals?: ApprovalsRow;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** The text an MCP client receives for this snapshot (see packages/mcp/src/replies.ts). */
function asReceived(result: SnapshotDriverResult): string {
  const counters = { el: 0, ln: 0 };
  const handles = result.refs.map((ref) => `${ref.kind}${++counters[ref.kind]}`);
  const outline = result.snapshot.replace(
    /\uE000(\d+)\uE001/g,
    (_, i: string) => `[${handles[Number(i)] ?? '?'}]`,
  );
  const head = result.title === '' ? result.url : `${result.url} "${result.title}"`;
  return `${head}\n${outline}${result.notice === undefined ? '' : `\n[${result.notice}]`}`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string): string | undefined =>
    args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined;
  const show = value('--show');
  const dump = value('--dump');
  const corpus = pageCorpusOrExit(args);
  const names = corpus.pages.filter((n) => show === undefined || n.startsWith(show));
  const server = await serveFixtures(corpus.dir);
  const browser = await launch();
  const rows: Row[] = [];
  try {
    if (dump) await mkdir(dump, { recursive: true });
    for (const name of names) {
      const page = await open(browser.context, `${server.origin}/corpus/${name}`);
      const read = async (params: Record<string, unknown>): Promise<SnapshotDriverResult | null> => {
        const result = await call(page, 'snapshot', params);
        if (result.ok) return result.data as SnapshotDriverResult;
        console.error(`${name}: ${result.error.code} ${result.error.message}`);
        return null;
      };
      const started = performance.now();
      const first = await read({});
      const ms = performance.now() - started;
      if (first === null) continue;
      const parts: SnapshotDriverResult[] = [];
      for (let offset: number | undefined = 0; offset !== undefined && parts.length < 50;) {
        const part = await read({ maxChars: 1_000_000, offset });
        if (part === null) break;
        parts.push(part);
        offset = part.nextOffset;
      }
      const approvals = args.includes('--approvals')
        ? await readApprovals(
            page,
            parts.flatMap((part) => part.refs),
          )
        : undefined;
      await page.close();
      const whole = parts.map(asReceived);
      const received = asReceived(first);
      const lines = whole.join('\n').split('\n');
      rows.push({
        fence: Buffer.byteLength(fenceUntrusted(received)) - Buffer.byteLength(received),
        hidden: lines.filter((l) => l.includes('(hidden: ')),
        ariaHidden: lines.filter((l) => l.includes('(aria-hidden: ')),
        aimed: lines.filter((l) => l.includes('(aimed at AI)')),
        name,
        bytes: Buffer.byteLength(asReceived(first)),
        wholeBytes: whole.reduce((sum, text) => sum + Buffer.byteLength(text), 0),
        parts: parts.length,
        handles: parts.reduce((sum, part) => sum + part.refs.length, 0),
        ms,
        ...(approvals === undefined ? {} : { approvals }),
      });
      if (show) console.log(whole.join('\n\n'));
      if (dump) await writeFile(join(dump, `${name}.txt`), whole.join('\n\n'));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (args.includes('--rows'))
    for (const r of rows)
      console.log(
        `${r.name.padEnd(40)} default ${(r.bytes / 1024).toFixed(1)} KB  whole ${(r.wholeBytes / 1024).toFixed(1)} KB  parts ${r.parts}  handles ${r.handles}  ${r.ms.toFixed(0)} ms`,
      );
  if (args.includes('--flags'))
    for (const r of rows)
      for (const l of [...r.hidden, ...r.ariaHidden, ...r.aimed])
        console.log(`${r.name}: ${l.trim().slice(0, 160)}`);
  if (args.includes('--approvals'))
    reportApprovals(
      rows.flatMap((r) => (r.approvals === undefined ? [] : [{ name: r.name, approvals: r.approvals }])),
      { context: args.includes('--context') },
    );
  const sorted = (pick: (r: Row) => number): number[] => rows.map(pick).sort((a, b) => a - b);
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  // 1024 bytes, as npm run bench:peers counts them.
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
  const line = (label: string, xs: number[], unit: (n: number) => string): void =>
    console.log(
      `${label.padEnd(32)} median ${unit(quantile(xs, 0.5))}  p90 ${unit(quantile(xs, 0.9))}  max ${unit(xs.at(-1) ?? 0)}  total ${unit(sum(xs))}`,
    );
  console.log(
    `pages: ${rows.length} (${corpus.own ? 'the project corpus, tests/fixtures/corpus' : `from ${corpus.from}`}), whole outline in more than one part: ${rows.filter((r) => r.parts > 1).length}`,
  );
  line(
    'default snapshot, as received:',
    sorted((r) => r.bytes),
    kb,
  );
  line(
    'whole outline, as received:',
    sorted((r) => r.wholeBytes),
    kb,
  );
  line(
    'handles in the whole outline:',
    sorted((r) => r.handles),
    String,
  );
  const fence = sorted((r) => r.fence);
  const bytes = sorted((r) => r.bytes);
  console.log(
    `untrusted-data fence: ${fence[0] ?? 0} bytes per reply (${((100 * (fence[0] ?? 0)) / (quantile(bytes, 0.5) || 1)).toFixed(1)} % of the median default snapshot)`,
  );
  const flagged = (pick: (r: Row) => string[]): string =>
    `${sum(rows.map((r) => pick(r).length))} lines on ${rows.filter((r) => pick(r).length > 0).length} pages`;
  console.log(
    `flags: (hidden: …) ${flagged((r) => r.hidden)}; (aria-hidden: …) ${flagged((r) => r.ariaHidden)}; (aimed at AI) ${flagged((r) => r.aimed)}`,
  );
  line(
    'default snapshot time, ms:',
    sorted((r) => r.ms),
    (n) => n.toFixed(0),
  );
}

await main();
