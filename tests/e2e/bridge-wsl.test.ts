/**
 * The WSL path: the bridge reaches "Windows Chrome" only through `powershell.exe` on PATH — here a
 * fake one (fake-powershell.mjs) that answers process lists, starts a real Chromium for a launch and
 * records every call. Checks the argument policy on what reaches Windows, the Windows profile the
 * tool's Linux one is replaced with, attach by profile, and stops on a normal exit and by the watchdog.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../kit/chromium';
import { ROOT } from '../kit/paths';
import { until } from '../kit/wait';
import { alive, bridgeDirs, bridgeEnv, bridgeLog, PipeBridge, type BridgeDirs } from '../kit/bridge';

const WINDOWS_CHROME = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
const WINDOWS_PROFILE = 'C:\\Users\\tester\\AppData\\Local\\bproxy\\bridge-profile';

let dirs: BridgeDirs;
let env: NodeJS.ProcessEnv;
let state: string;

interface Call {
  operation: string;
  params: Record<string, unknown>;
  caller: number;
}

function calls(caller?: number): Call[] {
  const text = readFileSync(join(state, 'calls.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Call)
    .filter((call) => caller === undefined || call.caller === caller);
}

beforeAll(() => {
  dirs = bridgeDirs();
  state = join(dirs.root, 'windows');
  const bin = join(dirs.root, 'bin');
  mkdirSync(state, { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(state, 'calls.jsonl'), '');
  const fake = join(bin, 'powershell.exe');
  writeFileSync(
    fake,
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'tests', 'kit', 'fake-powershell.mjs')}" "$@"\n`,
  );
  chmodSync(fake, 0o755);
  env = bridgeEnv(dirs, {
    BPROXY_BRIDGE_BROWSER: 'wsl',
    BPROXY_BRIDGE_CHROME: WINDOWS_CHROME,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    FAKE_PS_STATE: state,
    FAKE_PS_CHROMIUM: chromiumPath(),
  });
});

afterAll(async () => {
  for (const line of bridgeLog(dirs.home)) {
    if (typeof line.browserPid === 'number' && alive(line.browserPid))
      process.kill(line.browserPid, 'SIGKILL');
  }
  await dirs.remove();
});

const TOOL_ARGS = [
  '--headless',
  '--user-data-dir=/tmp/the-tools-own-linux-profile',
  '--enable-automation',
  '--disable-extensions',
  '--password-store=basic',
  '--window-size=800,600',
];

describe('Windows Chrome from WSL through powershell.exe', () => {
  it('launches with a Windows profile and filtered switches, lets a second bridge attach, stops it on exit', async () => {
    const launcher = new PipeBridge(env, TOOL_ARGS);
    expect((await launcher.send('Browser.getVersion')).result).toHaveProperty('product');
    // read-port repeats until Chrome has written its port file.
    const mine = calls(launcher.child.pid).filter((c, i, all) => c.operation !== all[i - 1]?.operation);
    expect(mine.map((c) => c.operation)).toEqual([
      'local-app-data',
      'list',
      'remove-port',
      'launch',
      'read-port',
    ]);
    expect(mine[1]?.params).toEqual({ name: 'chrome.exe' });
    const launch = mine[3]?.params as { file: string; commandLine: string };
    expect(launch.file).toBe(WINDOWS_CHROME);
    expect(launch.commandLine).toContain(`--user-data-dir=${WINDOWS_PROFILE}`);
    expect(launch.commandLine).toContain('--headless');
    expect(launch.commandLine).toContain('--window-size=800,600');
    for (const refused of [
      '--enable-automation',
      '--disable-extensions',
      '--password-store',
      'the-tools-own-linux-profile',
    ])
      expect(launch.commandLine).not.toContain(refused);
    const connected = bridgeLog(dirs.home).find(
      (l) => l.pid === launcher.child.pid && l.msg === 'browser connected',
    );
    expect(connected).toMatchObject({ ownership: 'launched', userDataDir: WINDOWS_PROFILE });

    const attacher = new PipeBridge(env, TOOL_ARGS);
    expect((await attacher.send('Browser.getVersion')).result).toHaveProperty('product');
    expect(calls(attacher.child.pid).map((c) => c.operation)).toEqual([
      'local-app-data',
      'list',
      'read-port',
    ]);
    expect(
      bridgeLog(dirs.home).find((l) => l.pid === attacher.child.pid && l.msg === 'browser connected'),
    ).toMatchObject({
      ownership: 'attached',
      browserPid: connected?.browserPid,
    });
    attacher.child.stdio[3]?.destroy();
    expect(await attacher.exited).toEqual({ code: 0, signal: null });
    expect(calls(attacher.child.pid).some((c) => c.operation === 'stop')).toBe(false);
    expect(alive(Number(connected?.browserPid))).toBe(true);

    // The tool closing its pipe ends the launcher, which stops the headless browser it launched.
    launcher.child.stdio[3]?.destroy();
    expect(await launcher.exited).toEqual({ code: 0, signal: null });
    expect(calls(launcher.child.pid).filter((c) => c.operation === 'stop')).toEqual([
      { operation: 'stop', params: { pid: connected?.browserPid }, caller: launcher.child.pid },
    ]);
    expect(alive(Number(connected?.browserPid))).toBe(false);
  }, 60_000);

  it('has the watchdog stop the launched headless Chrome through powershell.exe when the bridge is SIGKILLed', async () => {
    const bridge = new PipeBridge(env, TOOL_ARGS);
    expect((await bridge.send('Browser.getVersion')).result).toHaveProperty('product');
    const connected = bridgeLog(dirs.home).find(
      (l) => l.pid === bridge.child.pid && l.msg === 'browser connected',
    );
    const watching = await until('the watchdog', () =>
      bridgeLog(dirs.home).find((l) => l.watchdog === true && l.bridgePid === bridge.child.pid),
    );
    bridge.child.kill('SIGKILL');
    await bridge.exited;
    await until('the watchdog stopped the browser', () => !alive(Number(connected?.browserPid)), 15_000);
    const byWatchdog = calls(watching.pid);
    expect(byWatchdog.map((c) => c.operation)).toEqual(['list', 'stop']);
    expect(byWatchdog[0]?.params).toEqual({ name: 'chrome.exe', pid: connected?.browserPid });
  }, 60_000);
});
