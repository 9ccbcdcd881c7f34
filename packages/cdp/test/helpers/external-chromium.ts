/**
 * A Chromium the tests start themselves, as a user would: --remote-debugging-port=0 and its own
 * profile, so the driver has something to attach to that it did not launch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChrome } from '../../src/index';
import { isAlive, until } from './processes';

export interface ExternalChromium {
  process: ChildProcess;
  userDataDir: string;
  stop(): Promise<void>;
}

export async function startExternalChromium(): Promise<ExternalChromium> {
  const executable = findChrome();
  if (executable === undefined) throw new Error('no Chromium to start');
  const userDataDir = mkdtempSync(join(tmpdir(), 'bproxy-external-chromium-'));
  const args = [
    '--headless',
    '--disable-gpu',
    '--no-first-run',
    '--remote-debugging-port=0',
    `--user-data-dir=${userDataDir}`,
    'about:blank',
  ];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  const child = spawn(executable, args, { stdio: 'ignore' });
  await until(() => existsSync(join(userDataDir, 'DevToolsActivePort')), 'DevToolsActivePort', 15_000);
  return {
    process: child,
    userDataDir,
    async stop() {
      const pid = child.pid;
      child.kill('SIGKILL');
      if (pid !== undefined) await until(() => !isAlive(pid), 'the external Chromium to exit');
      rmSync(userDataDir, { recursive: true, force: true, maxRetries: 15, retryDelay: 200 });
    },
  };
}
