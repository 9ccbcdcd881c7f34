/**
 * The real daemon and the real CLI for the end-to-end suites: `bproxy service start|stop` in a
 * temporary BPROXY_HOME on a free port, any other command run as a child process, its JSON parsed.
 * Nothing here touches the real home directory.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeProfile } from './chromium';
import { ROOT } from './paths';

const CLI = join(ROOT, 'packages', 'cli', 'bin', 'bproxy.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (success), else stderr parsed (a failure envelope), else null. */
  json: unknown;
}

export interface CliError {
  code: string;
  message: string;
  retry?: boolean;
}

export interface StartOutput {
  running: true;
  pid: number;
  port: number;
  pairingCode: string;
  pairingExpiresAt: number;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return null;
  }
}

export interface CliOptions {
  /** The program and its first arguments (default: node on the clone's packages/cli/bin/bproxy.mjs). */
  command?: readonly [string, ...string[]];
  /** The folder commands run in (default: the temporary BPROXY_HOME). */
  cwd?: string;
  /** The environment to start from (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export class Cli {
  readonly home: string;
  private env: NodeJS.ProcessEnv;
  private readonly command: readonly [string, ...string[]];
  private readonly cwd: string;

  constructor(prefix = 'bproxy-e2e-home-', options: CliOptions = {}) {
    this.home = mkdtempSync(join(tmpdir(), prefix));
    this.env = {
      ...(options.env ?? process.env),
      BPROXY_HOME: this.home,
      BPROXY_PORT: '0',
      BPROXY_SESSION: '',
    };
    this.command = options.command ?? ['node', CLI];
    this.cwd = options.cwd ?? this.home;
  }

  /** Environment for every later command and the daemon it starts (BPROXY_CDP_URL, …). */
  setEnv(vars: Record<string, string>): void {
    this.env = { ...this.env, ...vars };
  }

  /** The environment commands run with (a browser started with it hands it to the native host). */
  environment(): NodeJS.ProcessEnv {
    return { ...this.env };
  }

  /** The port of the next `service start` (a restart on the same port keeps the extension's wsUrl valid). */
  usePort(port: number): void {
    this.env = { ...this.env, BPROXY_PORT: String(port) };
  }

  run(args: string[], timeoutMs = 45_000): Promise<CliResult> {
    return new Promise((resolve) => {
      const [program, ...first] = this.command;
      execFile(
        program,
        [...first, ...args],
        { env: this.env, timeout: timeoutMs, cwd: this.cwd },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr, json: code === 0 ? parse(stdout) : parse(stderr) });
        },
      );
    });
  }

  /** Runs a command that must succeed and returns its JSON. */
  async ok<T = Record<string, unknown>>(args: string[], timeoutMs?: number): Promise<T> {
    const result = await this.run(args, timeoutMs);
    if (result.code !== 0)
      throw new Error(`bproxy ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
    return result.json as T;
  }

  /** Runs a command that must fail and returns its error (code, message). */
  async fail(args: string[], timeoutMs?: number): Promise<CliError> {
    const result = await this.run(args, timeoutMs);
    if (result.code === 0) throw new Error(`bproxy ${args.join(' ')} succeeded: ${result.stdout}`);
    const envelope = result.json as { error?: Partial<CliError> } | null;
    const error = envelope?.error;
    if (typeof error?.code !== 'string')
      return { code: `exit ${result.code}`, message: result.stderr.trim() };
    return { ...error, code: error.code, message: error.message ?? '' };
  }

  /** Runs a command that must fail and returns its error code. */
  async failCode(args: string[], timeoutMs?: number): Promise<string> {
    return (await this.fail(args, timeoutMs)).code;
  }

  /** `service start` with browser options (`--browser none`, `--attach DIR`, `--cdp-url URL`). */
  async start(args: string[] = []): Promise<StartOutput> {
    return this.ok<StartOutput>(['service', 'start', ...args]);
  }

  async stop(): Promise<void> {
    await this.run(['service', 'stop']);
  }

  /**
   * Stops the daemon (its own stop, bounded by the command's timeout) and removes the home with a
   * short bounded retry; never throws. A browser the daemon left running is not killed here: the
   * suites assert that none is left (expectNoChromiumLeft).
   */
  async dispose(): Promise<void> {
    await this.run(['service', 'stop'], 30_000);
    await removeProfile(this.home);
  }
}
