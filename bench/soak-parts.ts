/**
 * Pieces of the soak run: a static server for the fixture pages, the daemon client checking the
 * one-answer invariant on every call, latency windows with percentiles, and one agent — a steady loop
 * of mixed actions on its own session and tab that recovers when a fault takes its tab away.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { DaemonClient, type Answer } from '@bproxy/client';

export async function serveDir(dir: string): Promise<{ url(page: string): string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir) || !existsSync(file)) return void res.writeHead(404).end();
    const type = extname(file) === '.html' ? 'text/html; charset=utf-8' : 'application/octet-stream';
    res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: (page) => `http://127.0.0.1:${port}/${page}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Invariant violations seen by the clients; the run fails if any. */
export const violations: string[] = [];

export interface Sample {
  action: string;
  ms: number;
  code: string;
}

export class Windows {
  private current: Sample[] = [];
  readonly all: Sample[][] = [];

  add(s: Sample): void {
    this.current.push(s);
  }

  /** Closes the current window and returns its samples. */
  roll(): Sample[] {
    const done = this.current;
    this.all.push(done);
    this.current = [];
    return done;
  }
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

let seq = 0;

/** The one daemon client, checking the one-answer invariant on every call. */
export class SoakClient {
  private readonly client: DaemonClient;

  constructor(
    port: number,
    token: string,
    readonly windows: Windows,
  ) {
    this.client = new DaemonClient({
      endpoint: { home: 'the soak daemon', port, token },
      keepAlive: true,
      connections: 64,
    });
  }

  /** One call; `retry` sends the same id again and checks that it gets the same answer. */
  async call(
    action: string,
    params: Record<string, unknown>,
    opts: { session?: string; deadlineMs?: number; retry?: boolean } = {},
  ): Promise<Answer> {
    const id = `soak${(++seq).toString(36)}`;
    const options = {
      id,
      timeoutMs: opts.deadlineMs ?? 15_000,
      ...(opts.session === undefined ? {} : { session: opts.session }),
    };
    const started = performance.now();
    let res: Answer;
    try {
      res = await this.client.call(action, params, options);
    } catch (err) {
      violations.push(`${id} ${action}: no answer (${String(err)})`);
      throw err;
    }
    const code = res.ok ? 'ok' : res.error.code;
    this.windows.add({ action, ms: performance.now() - started, code });
    if (res.id !== id) violations.push(`${id} ${action}: answer carries id ${String(res.id)}`);
    if (code === 'INTERNAL_ERROR') violations.push(`${id} ${action}: INTERNAL_ERROR`);
    if (opts.retry) {
      const again = await this.client.call(action, params, options);
      if (JSON.stringify(again) !== JSON.stringify(res))
        violations.push(`${id} ${action}: a retry got another answer`);
    }
    return res;
  }

  close(): void {
    this.client.close();
  }
}

const rand = (n: number) => Math.floor(Math.random() * n);

/** An agent: its own fast session and tab on the fixture pages, one action per tick. */
export class Agent {
  private session: string | null = null;
  private handles: string[] = [];
  actions = 0;

  constructor(
    private readonly client: SoakClient,
    private readonly pages: { url(page: string): string },
    private readonly browser: string,
  ) {}

  private async ensureTab(): Promise<string | null> {
    if (this.session) return this.session;
    const created = await this.client.call('session.create', { pacing: 'fast' });
    if (!created.ok) return null;
    const session = (created.data as { session: string }).session;
    const opened = await this.client.call(
      'tab.open',
      { url: this.pages.url('forms.html'), browser: this.browser },
      { session, deadlineMs: 30_000 },
    );
    if (!opened.ok) {
      await this.client.call('session.close', {}, { session });
      return null;
    }
    this.session = session;
    return session;
  }

  async tick(): Promise<void> {
    const session = await this.ensureTab();
    if (!session) return;
    this.actions++;
    const pick = rand(20);
    let res: Answer;
    if (pick < 4) res = await this.client.call('text', { maxChars: 2000 }, { session, retry: pick === 0 });
    else if (pick < 7) {
      res = await this.client.call('elements', {}, { session });
      if (res.ok)
        this.handles = (res.data as { elements: { handle: string }[] }).elements.map((e) => e.handle);
    } else if (pick < 9) res = await this.client.call('snapshot', { maxChars: 4000 }, { session });
    else if (pick < 10) res = await this.client.call('links', {}, { session });
    else if (pick < 12 && this.handles.length > 0) {
      const handle = this.handles[rand(this.handles.length)] ?? '';
      res = await this.client.call('hover', { target: handle }, { session });
    } else if (pick < 14)
      res = await this.client.call('scroll', { direction: pick === 12 ? 'down' : 'up' }, { session });
    else if (pick < 16) {
      const page = ['forms.html', 'list.html', 'long.html', 'spa.html'][rand(4)] ?? 'forms.html';
      res = await this.client.call('navigate', { url: this.pages.url(page) }, { session });
      this.handles = [];
    } else if (pick < 17) res = await this.client.call('screenshot', {}, { session });
    else if (pick < 18)
      res = await this.client.call('wait', { selector: 'body', timeoutMs: 2000 }, { session });
    else if (pick < 19) res = await this.client.call('text', {}, { session, deadlineMs: 1 + rand(30) });
    else res = await this.client.call('tab.list', {}, { session });
    if (!res.ok && ['TAB_NOT_FOUND', 'BROWSER_DISCONNECTED', 'SESSION_NOT_FOUND'].includes(res.error.code)) {
      // A fault took the tab: start again on a new one, as an agent would.
      await this.client.call('session.close', {}, { session }).catch(() => undefined);
      this.session = null;
      this.handles = [];
    }
  }

  async close(): Promise<void> {
    if (this.session) await this.client.call('session.close', {}, { session: this.session });
    this.session = null;
  }
}
