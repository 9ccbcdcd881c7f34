/**
 * A real browserless farm (browserless-farm.mjs) as a child process on 127.0.0.1, and its own HTTP API
 * as a farm operator sees it: the sessions it runs and the pressure on it (running, queued). Used by
 * the farm tests and by `npm run bench:farm`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromiumPath, closeBrowserWithin, stopChildWithin } from './chromium';
import { ROOT } from './paths';

const SCRIPT = join(ROOT, 'tests', 'kit', 'browserless-farm.mjs');

export interface FarmSession {
  id: string;
  type: 'browser' | 'page';
  browserId: string;
  url?: string;
}

export interface Farm {
  /** The farm's CDP endpoint with its token, as a user would put it in BPROXY_CDP_URL. */
  readonly wsUrl: string;
  readonly token: string;
  readonly origin: string;
  /** The farm's own session list (GET /sessions): one `browser` entry per browser it runs. */
  sessions(): Promise<FarmSession[]>;
  browsers(): Promise<FarmSession[]>;
  /** Browsers running and connections waiting in its queue (GET /pressure). */
  pressure(): Promise<{ running: number; queued: number }>;
  /** What the farm wrote on stderr (for a failing test's message). */
  output(): string;
  close(): Promise<void>;
}

export async function startFarm(options: { concurrent: number; queued: number }): Promise<Farm> {
  const token = randomBytes(18).toString('base64url');
  const browsersDir = mkdtempSync(join(tmpdir(), 'bproxy-farm-browsers-'));
  const child: ChildProcess = spawn(
    process.execPath,
    [SCRIPT, JSON.stringify({ ...options, token, chrome: chromiumPath(), browsersDir })],
    // browserless reads ./package.json at start (for Playwright versions it may serve): the root's will do.
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the farm did not start:\n${stderr}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`the farm exited (${code}):\n${stderr}`)));
    if (child.stdout === null) return reject(new Error('no stdout'));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  const origin = `http://127.0.0.1:${port}`;
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${origin}${path}?token=${token}`);
    if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
    return (await response.json()) as T;
  };
  const farm: Farm = {
    wsUrl: `ws://127.0.0.1:${port}/?token=${token}`,
    token,
    origin,
    sessions: () => get<FarmSession[]>('/sessions'),
    browsers: async () => (await farm.sessions()).filter((s) => s.type === 'browser'),
    async pressure() {
      const { pressure } = await get<{ pressure: { running: number; queued: number } }>('/pressure');
      return { running: pressure.running, queued: pressure.queued };
    },
    output: () => stderr,
    // Bounded: the farm is stopped (SIGTERM, SIGKILL after a bound), a browser of it still running then
    // is killed, and its folder removed with a short bounded retry.
    close: () => closeBrowserWithin(browsersDir, () => stopChildWithin(child)),
  };
  return farm;
}
