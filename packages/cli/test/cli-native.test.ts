/**
 * The compiled binary (`npm run build:native`, Bun) behaves like the Node CLI: the same version, the
 * same usage errors and exit codes, and a real round trip — `service start` runs the Node daemon that
 * sits next to the binary, then actions reach it. Its action lines take the fast path (no commander
 * loaded): each prints exactly what the full commander program prints for it, and the lines the fast
 * path leaves are answered by the full program inside the binary. The binary is compiled from the
 * current source into a temporary directory; without Bun (a devDependency) the suite is skipped.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol/plain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCli, findBun } from '../../../scripts/compile-cli.mjs';
import { runProgram } from '../src/program';
import { FAST_LINES, FULL_LINES } from './helpers/action-lines';
import { capture, comparable } from './helpers/capture';
import { killDaemonOf, parseJsonLine, type CliRun } from './helpers/cli-harness';
import { startFakeDaemon, type FakeDaemon } from './helpers/fake-daemon-process';

function bunAvailable(): boolean {
  try {
    execFileSync(findBun(), ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const HAS_BUN = bunAvailable();
if (!HAS_BUN) console.warn('cli-native: skipped — Bun not found (npm install, or set BUN=/path/to/bun)');

let dir = '';
let binary = '';
const homes: string[] = [];

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-native-home-'));
  homes.push(home);
  return home;
}

function run(
  args: readonly string[],
  home: string,
  extra: Record<string, string> = {},
  cwd?: string,
): Promise<CliRun> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    BPROXY_HOME: home,
    BPROXY_PORT: '0',
    ...extra,
  };
  return new Promise((resolve) => {
    execFile(binary, args, { env, cwd, timeout: 20_000, killSignal: 'SIGKILL' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  if (!HAS_BUN) return;
  dir = mkdtempSync(join(tmpdir(), 'bproxy-native-'));
  binary = await compileCli({ outfile: join(dir, 'bproxy') });
}, 120_000);
afterAll(async () => {
  for (const home of homes) {
    await killDaemonOf(home);
    rmSync(home, { recursive: true, force: true });
  }
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAS_BUN)('the compiled bproxy binary', () => {
  it('prints the version', async () => {
    const result = await run(['--version'], newHome());
    expect(result).toEqual({ code: 0, stdout: `${BPROXY_VERSION}\n`, stderr: '' });
  });

  it('exits 2 with a USAGE error for a bad command line', async () => {
    const result = await run(['click'], newHome());
    expect(result.code).toBe(2);
    expect(parseJsonLine(result.stderr)).toMatchObject({
      ok: false,
      error: { code: 'USAGE', message: 'give an element handle (el3, ln2) or --selector CSS' },
    });
  });

  it('names the field the protocol schema refuses, even without a daemon', async () => {
    const result = await run(['call', 'debug.last', '{"limit":"5"}'], newHome());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('params.limit');
  });

  it('exits 3 when no daemon runs', async () => {
    const home = newHome();
    const result = await run(['session', 'list'], home);
    expect(result.code).toBe(3);
    expect(parseJsonLine(result.stderr)).toMatchObject({ error: { code: 'NO_DAEMON' } });
  });

  it('starts the Node daemon next to it, round-trips actions, and stops it', async () => {
    const home = newHome();
    const start = await run(['service', 'start', '--browser', 'none'], home);
    expect(start.stderr).toBe('');
    expect(start.code).toBe(0);
    const started = parseJsonLine(start.stdout) as { running: boolean; pid: number; port: number };
    expect(started.running).toBe(true);

    const created = await run(['session', 'create', '--pacing', 'fast'], home);
    expect(created.code).toBe(0);
    const { session } = parseJsonLine(created.stdout) as { session: string };

    const list = await run(['session', 'list'], home);
    expect(list.code).toBe(0);
    const sessions = (parseJsonLine(list.stdout) as { sessions: { session: string }[] }).sessions;
    expect(sessions.map((s) => s.session)).toContain(session);

    const status = await run(['debug', 'status'], home);
    expect(parseJsonLine(status.stdout)).toMatchObject({ pid: started.pid, port: started.port });

    const refused = await run(['-s', 'aaaaaa', 'session', 'close'], home);
    expect(refused.code).toBe(1);
    expect(parseJsonLine(refused.stderr)).toMatchObject({ ok: false, error: { code: 'SESSION_NOT_FOUND' } });

    const stop = await run(['service', 'stop'], home);
    expect(stop).toEqual({ code: 0, stdout: '{"running":false}\n', stderr: '' });
  });
});

describe.skipIf(!HAS_BUN)('the compiled binary against the full program', () => {
  let home = '';
  let fake: FakeDaemon;
  beforeAll(async () => {
    home = newHome();
    fake = await startFakeDaemon(home);
  }, 60_000);
  afterAll(async () => {
    await fake.stop();
  });

  /** The binary's run and the full program's (in this process), with request ids and deadlines blanked. */
  async function both(line: readonly string[], env: Record<string, string> = {}) {
    const { code, stdout, stderr } = await run(line, home, env);
    return {
      binary: comparable({ code: code ?? -1, stdout, stderr }),
      full: comparable(await capture(() => runProgram(line, { ...env, BPROXY_HOME: home }))),
    };
  }

  const titled = (lines: readonly (readonly string[])[]) => lines.map((l) => [JSON.stringify(l), l] as const);

  it.each(titled(FAST_LINES))('prints what commander prints for %s, on the fast path', async (_t, line) => {
    const { binary: fast, full } = await both(line, { BPROXY_SESSION: 'envs01' });
    expect(fast).toEqual(full);
  });

  it.each(titled(FULL_LINES))('answers %s with its full program', async (_t, line) => {
    const { binary: fallback, full } = await both(line);
    expect(fallback).toEqual(full);
  });

  it('reads no .env or bunfig.toml from the directory it runs in', async () => {
    // Bun's executables load both by default: a repository the agent works in could set BPROXY_HOME,
    // BPROXY_DAEMON (the script `service start` runs) or preload code into the CLI.
    const cwd = join(fake.dir, 'repo');
    mkdirSync(cwd);
    writeFileSync(join(cwd, '.env'), 'BPROXY_SESSION=fromdotenv\nBPROXY_HOME=/nonexistent\n');
    writeFileSync(join(cwd, 'bunfig.toml'), 'preload = ["./preload.ts"]\n');
    writeFileSync(join(cwd, 'preload.ts'), 'console.error("preloaded");\n');
    const result = await run(['text'], home, {}, cwd);
    expect(result.code).toBe(1);
    const echo = (parseJsonLine(result.stderr) as { error: { details: { request: object } } }).error.details;
    expect(echo.request).not.toHaveProperty('session');
  });

  it('writes the same successful screenshot', async () => {
    const out = join(fake.dir, 'native.png');
    const { binary: fast, full } = await both(['screenshot', '--format', 'png', '--out', out]);
    expect(fast).toEqual(full);
    expect(fast.code).toBe(0);
  });

  it('writes a screenshot without --out into BPROXY_HOME/screenshots (0600), and refuses that folder open to others', async () => {
    const folder = join(home, 'screenshots');
    rmSync(folder, { recursive: true, force: true });
    const shot = await run(['screenshot', '--format', 'png'], home);
    expect(shot.stderr).toBe('');
    expect(shot.code).toBe(0);
    const { path } = parseJsonLine(shot.stdout) as { path: string };
    expect(dirname(path)).toBe(folder);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);

    rmSync(folder, { recursive: true });
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const refused = await run(['screenshot', '--format', 'png'], home);
    expect(refused.code).toBe(1);
    expect(parseJsonLine(refused.stderr)).toMatchObject({ ok: false, error: { code: 'UNSAFE_STATE_FILE' } });
    expect(readdirSync(folder)).toEqual([]);
    rmSync(folder, { recursive: true });
  });
});
