/**
 * Shared pieces of the bridge's end-to-end tests: the built `bproxy-bridge` executable run as a real
 * process against Debian's Chromium, its JSON log read back, the browser processes of a profile found
 * in /proc, and a raw CDP client for the cases where the order of messages is the point.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_FLAGS, chromiumPath, closeBrowserWithin, removeProfile } from './chromium';
import { ROOT } from './paths';
import { until } from './wait';

export const BRIDGE = join(ROOT, 'packages', 'cli', 'dist', 'bproxy-bridge');
export const TOKEN = 'bridge-test-token-0123456789-abcdefghijklmnop';

export interface BridgeDirs {
  root: string;
  home: string;
  profile(name: string): string;
  remove(): Promise<void>;
}

export function bridgeDirs(): BridgeDirs {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-bridge-e2e-'));
  return {
    root,
    home: join(root, 'home'),
    profile: (name) => join(root, name),
    remove: () => removeProfile(root),
  };
}

export function bridgeEnv(dirs: BridgeDirs, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: dirs.root,
    BPROXY_HOME: dirs.home,
    BPROXY_BRIDGE_BROWSER: 'local',
    BPROXY_BRIDGE_CHROME: chromiumPath(),
    BPROXY_BRIDGE_TOKEN: TOKEN,
    ...extra,
  };
}

export interface RunningBridge {
  child: ChildProcess;
  wsUrl: string;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/** Starts the bridge in ws mode and waits for the line Chrome prints when its endpoint listens. */
export async function startWsBridge(env: NodeJS.ProcessEnv, args: string[]): Promise<RunningBridge> {
  const child = spawn(BRIDGE, ['--remote-debugging-port=0', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const wsUrl = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(({ code }) =>
      reject(new Error(`the bridge exited (${code}) before listening: ${stderr}`)),
    );
  });
  return { child, wsUrl, port: Number(new URL(wsUrl).port), exited, stderr: () => stderr };
}

export type LogLine = Record<string, unknown> & { msg: string; pid: number };

/** Every line of the bridge logs in BPROXY_HOME, in order. */
export function bridgeLog(home: string): LogLine[] {
  const dir = join(home, 'logs');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.startsWith('bridge-'))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

export function waitForLog(
  home: string,
  what: string,
  match: (line: LogLine) => boolean,
  timeoutMs = 20_000,
): Promise<LogLine> {
  return until(what, () => bridgeLog(home).find(match), timeoutMs);
}

/** Root browser processes (not renderers) started with this profile. */
export function browserPids(profile: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const exe = args[0] ?? '';
      if (!exe.includes('chrom')) continue;
      if (args.includes(`--user-data-dir=${profile}`) && !args.some((a) => a.startsWith('--type='))) {
        pids.push(Number(entry));
      }
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/** A Chromium the test starts itself, with a DevTools port: "the user's browser" the bridge attaches to. */
export async function startOwnChromium(
  profile: string,
  headless: boolean,
): Promise<{ pid: number; stop(): Promise<void> }> {
  const flags = headless ? CHROMIUM_FLAGS : CHROMIUM_FLAGS.filter((f) => f !== '--headless');
  const args = [...flags, `--user-data-dir=${profile}`, '--remote-debugging-port=0'];
  const child = spawn(chromiumPath(), [...args, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('DevTools listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${text}`)));
  });
  const pid = child.pid ?? -1;
  return {
    pid,
    // The profile is the test's (BridgeDirs removes it); the browser is killed, its exit bounded.
    stop: () =>
      closeBrowserWithin(
        profile,
        async () => {
          if (!alive(pid)) return;
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await exited;
        },
        { keepProfile: true },
      ),
  };
}

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** A CDP client with nothing clever in it: every message it received, in order. */
export class RawCdp {
  readonly received: CdpMessage[] = [];
  private nextId = 1;
  private readonly waiters = new Map<number, (message: CdpMessage) => void>();
  closed = false;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as CdpMessage;
      this.received.push(message);
      if (message.id !== undefined) this.waiters.get(message.id)?.(message);
    });
    socket.on('close', () => (this.closed = true));
  }

  static async connect(url: string, headers: Record<string, string> = {}): Promise<RawCdp> {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new RawCdp(socket);
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
    id = this.nextId++,
  ): Promise<CdpMessage> {
    const answer = new Promise<CdpMessage>((resolve) => this.waiters.set(id, resolve));
    this.socket.send(
      JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }),
    );
    return answer;
  }

  close(): void {
    this.socket.close();
  }
}

/** The bridge started as a tool starts Chrome with --remote-debugging-pipe: CDP on its fds 3 and 4. */
export class PipeBridge {
  readonly received: CdpMessage[] = [];
  private nextId = 1;
  private readonly waiters = new Map<number, (message: CdpMessage) => void>();
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderrText = '';

  constructor(
    env: NodeJS.ProcessEnv,
    args: string[],
    readonly child: ChildProcess = spawn(BRIDGE, ['--remote-debugging-pipe', ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    }),
  ) {
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stderr?.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
    let pending = '';
    const fromBridge = child.stdio[4] as NodeJS.ReadableStream;
    fromBridge.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      let end = pending.indexOf('\0');
      while (end !== -1) {
        const message = JSON.parse(pending.slice(0, end)) as CdpMessage;
        pending = pending.slice(end + 1);
        this.received.push(message);
        if (message.id !== undefined) this.waiters.get(message.id)?.(message);
        end = pending.indexOf('\0');
      }
    });
    (child.stdio[3] as NodeJS.WritableStream).on('error', () => undefined);
  }

  get stderr(): string {
    return this.stderrText;
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<CdpMessage> {
    const id = this.nextId++;
    const answer = new Promise<CdpMessage>((resolve) => this.waiters.set(id, resolve));
    const message = sessionId === undefined ? { id, method, params } : { id, method, params, sessionId };
    (this.child.stdio[3] as NodeJS.WritableStream).write(`${JSON.stringify(message)}\0`);
    return answer;
  }
}
