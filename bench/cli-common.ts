/**
 * Shared pieces of the end-to-end benchmarks (bench/cdp.ts, bench/e2e.ts): a static server for a
 * page corpus (scripts/page-corpus.mjs: `--pages DIR`, BPROXY_BENCH_PAGES or the project's own) and
 * the counter page (with the CSP the brief prescribes), a keep-alive HTTP client (the one daemon
 * client), whole-process timing, percentiles and the bproxy binaries.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { DaemonClient, type Answer } from '@bproxy/client';
import { loadavg } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageCorpus } from '../scripts/page-corpus.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE_PAGES = join(ROOT, 'tests', 'fixtures', 'pages');
export const NODE_CLI = join(ROOT, 'packages', 'cli', 'bin', 'bproxy.mjs');
export const NATIVE_CLI = join(ROOT, 'packages', 'cli', 'dist', `bproxy-${process.platform}-${process.arch}`);
const CSP = "default-src 'self' 'unsafe-inline' data:";

// ---------------------------------------------------------------------------------------------- stats

export function pct(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '—');

export function summary(values: readonly number[]): string {
  return `p50 ${ms(pct(values, 50))} ms  p90 ${ms(pct(values, 90))} ms  (n=${values.length})`;
}

export function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

// ---------------------------------------------------------------------------------------------- pages

export interface PageServer {
  origin: string;
  /** The corpus pages, sorted by name (none when the benchmark serves no corpus). */
  benchPages: string[];
  /** The corpus pages whose scripts open no dialog (for CLI runs, where nobody would answer one). */
  quietPages: string[];
  benchUrl(name: string): string;
  counterUrl: string;
  close(): Promise<void>;
}

/** Serves the fixture pages at the root and the pages of `corpus`, if given, under /corpus/. */
export async function servePages(corpus?: PageCorpus): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    // Only a page the corpus lists, by its exact name: nothing else of its folder or beyond.
    const corpusPage = path.startsWith('/corpus/') ? path.slice('/corpus/'.length) : undefined;
    const [base, rel] =
      corpusPage !== undefined && corpus?.pages.includes(corpusPage) === true
        ? [corpus.dir, corpusPage]
        : [FIXTURE_PAGES, path.slice(1)];
    const file = normalize(join(base, rel));
    if (!file.startsWith(base + sep) || !existsSync(file) || !file.endsWith('.html')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the page server has no port');
  const origin = `http://127.0.0.1:${address.port}`;
  const benchPages = corpus?.pages ?? [];
  return {
    origin,
    benchPages,
    quietPages:
      corpus === undefined
        ? []
        : benchPages.filter(
            (n) => !/\b(alert|confirm|prompt)\(/.test(readFileSync(join(corpus.dir, n), 'utf8')),
          ),
    benchUrl: (name) => `${origin}/corpus/${encodeURIComponent(name)}`,
    counterUrl: `${origin}/counter.html`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ----------------------------------------------------------------------------------------------- HTTP

export type Envelope = Answer;

/**
 * The daemon of a BPROXY_HOME through the one client (@bproxy/client): state files checked, one
 * keep-alive connection, the way a long-lived HTTP agent would talk to it.
 */
export class DaemonHttp {
  private constructor(private readonly client: DaemonClient) {}

  static fromHome(home: string): DaemonHttp {
    return new DaemonHttp(new DaemonClient({ env: { BPROXY_HOME: home }, keepAlive: true, connections: 1 }));
  }

  post(action: string, session: string | undefined, params: object = {}): Promise<Envelope> {
    return this.client.call(
      action,
      { ...params },
      { timeoutMs: 60_000, ...(session === undefined ? {} : { session }) },
    );
  }

  /** Like post, but a failure throws: for setup steps. */
  async ok(
    action: string,
    session: string | undefined,
    params: object = {},
  ): Promise<Record<string, unknown>> {
    const r = await this.post(action, session, params);
    if (!r.ok) throw new Error(`${action} failed: ${JSON.stringify(r.error)}`);
    return r.data;
  }

  close(): void {
    this.client.close();
  }
}

// ------------------------------------------------------------------------------------------ processes

/**
 * Runs `cleanup` (stop the daemon, close the browsers) when the run is interrupted, too: Ctrl-C, a
 * SIGTERM, or a reader that went away (`| head`) would otherwise leave a daemon and Chromium behind.
 */
export function cleanupOnInterrupt(cleanup: () => Promise<void>): void {
  let running = false;
  const stop = (code: number) => {
    if (running) return;
    running = true;
    void cleanup().finally(() => process.exit(code));
  };
  process.on('SIGINT', () => stop(130));
  process.on('SIGTERM', () => stop(143));
  process.stdout.on('error', () => stop(1));
}

export interface ProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs a command to completion and times it from spawn to exit. Asynchronous on purpose: the page
 * server lives in this process and must keep answering while the child runs.
 */
export function timed(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Runs a command that must succeed; its run, for its timing and output. */
export async function mustRun(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ProcessRun> {
  const run = await timed(command, args, env);
  if (run.code !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${run.code}: ${run.stderr || run.stdout}`);
  return run;
}

/** The compiled CLI, compiled now from the current source (with the Node bundles next to it). */
export async function ensureNativeCli(): Promise<string | null> {
  try {
    const { compileCli } = await import('../scripts/compile-cli.mjs');
    return await compileCli();
  } catch (error) {
    console.error(`no compiled CLI (${error instanceof Error ? error.message : String(error)})`);
    return null;
  }
}
