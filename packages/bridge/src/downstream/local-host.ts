/**
 * The browser on this machine (Linux, macOS). Processes come from /proc on Linux (exact argument
 * boundaries) and from `ps` on macOS; a launched browser runs in its own session (detached), so a tool
 * that kills the bridge's process group does not take the user's browser with it.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { Socket } from 'node:net';
import { basename, join, resolve } from 'node:path';
import { parseDevToolsActivePort } from '@bproxy/cdp/wire';
import { hasSwitch, type BrowserHost, type BrowserProcess, type LaunchedProcess } from './browser-host';
import { waitForExit } from './process-exit';

/** Chrome's words when it ignores --remote-debugging-port on its default data directory (136+). */
const CHROME_IGNORES_PORT = /DevTools remote debugging requires a non-default data directory[^\n]*/;

/** Binary names of the Chromium family, for telling a browser from a tool that shares its arguments. */
const BROWSER_NAMES = new Set([
  'chrome',
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'google-chrome-beta',
  'google-chrome-unstable',
  'chrome-headless-shell',
  'msedge',
  'microsoft-edge',
  'brave',
  'Google Chrome',
  'Chromium',
  'Microsoft Edge',
  'Brave Browser',
]);

/** A binary of the Chromium family by its name (what a launcher script such as Debian's execs). */
export function isChromiumFamily(path: string): boolean {
  return BROWSER_NAMES.has(basename(path));
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function linuxProcess(pid: number): BrowserProcess | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (args.at(-1) === '') args.pop();
    let executablePath: string | undefined;
    try {
      executablePath = readlinkSync(`/proc/${pid}/exe`);
    } catch {
      executablePath = undefined;
    }
    return { pid, args, executablePath };
  } catch {
    return undefined;
  }
}

/** macOS: `ps` joins arguments with spaces; switches are split at " --", which Chrome's never contain. */
function psProcesses(): Promise<BrowserProcess[]> {
  return new Promise((done) => {
    execFile('ps', ['-axww', '-o', 'pid=,command='], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) return done([]);
      const rows: BrowserProcess[] = [];
      for (const line of stdout.split('\n')) {
        const match = /^\s*(\d+)\s+(.*)$/.exec(line);
        if (match === null) continue;
        const [program = '', ...rest] = (match[2] ?? '').split(/ (?=--)/);
        rows.push({ pid: Number(match[1]), args: [program, ...rest], executablePath: program });
      }
      done(rows);
    });
  });
}

export class LocalHost implements BrowserHost {
  readonly kind = 'local';
  readonly debuggerHost = '127.0.0.1';
  private readonly executable: string | undefined;

  constructor(
    private readonly options: { executablePath: string | undefined; home: string; env: NodeJS.ProcessEnv },
  ) {
    this.executable = options.executablePath === undefined ? undefined : realpathOr(options.executablePath);
  }

  private isBrowserRoot(proc: BrowserProcess): boolean {
    if (proc.pid === process.pid || hasSwitch(proc.args, '--type')) return false;
    const exe = proc.executablePath ?? proc.args[0] ?? '';
    return exe === this.executable || BROWSER_NAMES.has(basename(exe));
  }

  async list(): Promise<BrowserProcess[]> {
    const all =
      process.platform === 'linux'
        ? readdirSync('/proc')
            .filter((entry) => /^\d+$/.test(entry))
            .map((entry) => linuxProcess(Number(entry)))
            .filter((proc): proc is BrowserProcess => proc !== undefined)
        : await psProcesses();
    return all.filter((proc) => this.isBrowserRoot(proc));
  }

  async find(pid: number): Promise<BrowserProcess | undefined> {
    if (process.platform === 'linux') return linuxProcess(pid);
    return (await psProcesses()).find((proc) => proc.pid === pid);
  }

  async launch(executablePath: string, args: readonly string[]): Promise<LaunchedProcess> {
    const child = spawn(executablePath, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    let resolveListening: (outcome: { url: string } | { refused: string }) => void = () => undefined;
    const listening = new Promise<{ url: string } | { refused: string }>((done) => (resolveListening = done));
    child.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-4000);
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(tail);
      if (match?.[1] !== undefined) resolveListening({ url: match[1] });
      const refused = CHROME_IGNORES_PORT.exec(tail);
      if (refused !== null) resolveListening({ refused: refused[0] });
    });
    const exited = new Promise<string>((done) => {
      child.once('exit', () => done(tail.trim()));
      child.once('error', (error) => done(`could not start ${executablePath}: ${error.message}`));
    });
    // The browser outlives the bridge: nothing here may keep the bridge's event loop alive.
    child.unref();
    (child.stderr as Socket | null)?.unref();
    await new Promise<void>((done) => {
      child.once('spawn', () => done());
      child.once('error', () => done());
    });
    return { pid: child.pid ?? -1, listening, exited };
  }

  async stop(pid: number): Promise<void> {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      return;
    }
    if (await waitForExit(pid, 5_000)) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    await waitForExit(pid, 2_000);
  }

  async readActivePort(userDataDir: string): Promise<{ port: number; path: string } | undefined> {
    try {
      return parseDevToolsActivePort(await readFile(join(userDataDir, 'DevToolsActivePort'), 'utf8'));
    } catch {
      return undefined;
    }
  }

  async removeActivePort(userDataDir: string): Promise<void> {
    await rm(join(userDataDir, 'DevToolsActivePort'), { force: true });
  }

  sameProfile(a: string, b: string): boolean {
    const norm = (p: string): string => {
      const full = realpathOr(resolve(p));
      return process.platform === 'darwin' ? full.toLowerCase() : full;
    };
    return norm(a) === norm(b);
  }

  async defaultProfile(): Promise<string> {
    return join(this.options.home, 'bridge-profile');
  }

  async chromeDefaultProfiles(): Promise<string[]> {
    const home = this.options.env.HOME ?? homedir();
    if (process.platform === 'darwin') {
      const support = join(home, 'Library', 'Application Support');
      return ['Google/Chrome', 'Google/Chrome Beta', 'Google/Chrome Canary', 'Chromium'].map((d) =>
        join(support, d),
      );
    }
    const config = this.options.env.XDG_CONFIG_HOME ?? join(home, '.config');
    return ['google-chrome', 'google-chrome-beta', 'google-chrome-unstable', 'chromium'].map((d) =>
      join(config, d),
    );
  }
}
