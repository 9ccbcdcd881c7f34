/**
 * Driver figures over HTTP (POST / with the token, one keep-alive connection, fast pacing), the same
 * for every driver: click and text latency on the counter page — the final count is checked —, far
 * clicks (two buttons ~800 px apart, clicked in turn: the pointer travels every time; the page counts
 * them) and snapshot bytes and time over every bench page.
 */
import { pct, summary, type DaemonHttp, type Envelope, type PageServer } from './cli-common';

export interface HttpFigures {
  click: number[];
  farClick: number[];
  text: number[];
  snapshot: { ms: number[]; bytes: number[]; failed: string[] };
}

async function timedOk(http: DaemonHttp, action: string, session: string, params: object): Promise<number> {
  const started = performance.now();
  const r = await http.post(action, session, params);
  const elapsed = performance.now() - started;
  if (!r.ok) throw new Error(`${action} failed: ${JSON.stringify(r.error)}`);
  return elapsed;
}

/** A fresh fast-paced session with one tab on `url`; its id. */
export async function fastSession(http: DaemonHttp, url: string, browser?: string): Promise<string> {
  const created = await http.ok('session.create', undefined, { pacing: 'fast' });
  const session = String(created.session);
  await http.ok('tab.open', session, { url, ...(browser === undefined ? {} : { browser }) });
  return session;
}

export async function readCount(http: DaemonHttp, session: string): Promise<number> {
  const text = String((await http.ok('text', session)).text);
  const match = /Count: (\d+)/.exec(text);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]);
}

/** Dismisses whatever dialogs are open (a page of another corpus may alert while loading) until none is left. */
async function dismissDialogs(http: DaemonHttp, session: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if (!(await http.post('dialog', session, { accept: false })).ok) return;
  }
}

const blockedByDialog = (r: Envelope): boolean =>
  r.ok ? r.data.dialog !== undefined : r.error.code === 'DIALOG_OPEN';

/** Runs a read; a dialog in the way is dismissed and the read tried again. */
async function readDespiteDialogs(
  http: DaemonHttp,
  session: string,
  action: string,
  params: object,
): Promise<Envelope> {
  let result = await http.post(action, session, params);
  for (let i = 0; i < 3 && blockedByDialog(result); i++) {
    await dismissDialogs(http, session);
    result = await http.post(action, session, params);
  }
  return result;
}

export async function measureHttp(
  http: DaemonHttp,
  pages: PageServer,
  options: { clicks: number; texts: number; browser?: string },
): Promise<HttpFigures> {
  const session = await fastSession(http, pages.counterUrl, options.browser);
  const click = { target: { selector: '#inc' } };
  for (let i = 0; i < 5; i++) await timedOk(http, 'click', session, click); // warm-up
  const figures: HttpFigures = {
    click: [],
    farClick: [],
    text: [],
    snapshot: { ms: [], bytes: [], failed: [] },
  };
  for (let i = 0; i < options.clicks; i++) figures.click.push(await timedOk(http, 'click', session, click));
  const count = await readCount(http, session);
  if (count !== options.clicks + 5)
    throw new Error(`the counter shows ${count} after ${options.clicks + 5} clicks`);
  for (let i = 0; i < options.texts; i++) figures.text.push(await timedOk(http, 'text', session, {}));
  figures.farClick = await measureFarClicks(http, session, pages, options.clicks);

  for (const name of pages.benchPages) {
    const nav = await http.post('navigate', session, { url: pages.benchUrl(name) });
    if (blockedByDialog(nav)) await dismissDialogs(http, session);
    else if (!nav.ok) {
      figures.snapshot.failed.push(`${name}: navigate ${nav.error.code}: ${nav.error.message}`);
      continue;
    }
    // Timed from the first attempt: a dialog in the way is part of what the snapshot cost.
    const started = performance.now();
    const snap = await readDespiteDialogs(http, session, 'snapshot', {});
    const elapsed = performance.now() - started;
    if (!snap.ok) {
      figures.snapshot.failed.push(`${name}: snapshot ${snap.error.code}: ${snap.error.message}`);
      continue;
    }
    if (typeof snap.data.snapshot !== 'string') {
      figures.snapshot.failed.push(`${name}: the snapshot answer holds no snapshot`);
      continue;
    }
    figures.snapshot.ms.push(elapsed);
    figures.snapshot.bytes.push(Buffer.byteLength(snap.data.snapshot));
  }
  await http.post('session.close', session, {});
  return figures;
}

/** Clicks on two buttons far apart, in turn, so that the pointer travels to each: the page counts them. */
export async function measureFarClicks(
  http: DaemonHttp,
  session: string,
  pages: PageServer,
  clicks: number,
): Promise<number[]> {
  await http.ok('navigate', session, { url: `${pages.origin}/trusted.html` });
  const targets = [{ target: { selector: '#count' } }, { target: { selector: '#far' } }];
  const times: number[] = [];
  for (let i = 0; i < clicks + 4; i++) {
    const elapsed = await timedOk(http, 'click', session, targets[i % 2] ?? {});
    if (i >= 4) times.push(elapsed); // warm-up
  }
  const text = String((await http.ok('text', session)).text);
  const counted = /clicks: trusted (\d+), untrusted (\d+)/.exec(text);
  if (Number(counted?.[1]) + Number(counted?.[2]) !== clicks + 4)
    throw new Error(`the page counted "${counted?.[0] ?? 'nothing'}" after ${clicks + 4} far clicks`);
  return times;
}

export function printHttpFigures(title: string, f: HttpFigures): void {
  const sum = f.snapshot.bytes.reduce((a, b) => a + b, 0);
  console.log(`\n${title}`);
  console.log(`  click              ${summary(f.click)}`);
  console.log(`  far click          ${summary(f.farClick)}`);
  console.log(`  text               ${summary(f.text)}`);
  console.log(`  snapshot time      ${summary(f.snapshot.ms)}`);
  console.log(
    `  snapshot bytes     p50 ${pct(f.snapshot.bytes, 50)}  p90 ${pct(f.snapshot.bytes, 90)}  max ${pct(f.snapshot.bytes, 100)}  total ${sum} over ${f.snapshot.bytes.length} pages`,
  );
  for (const failure of f.snapshot.failed) console.log(`  (failed) ${failure}`);
}
