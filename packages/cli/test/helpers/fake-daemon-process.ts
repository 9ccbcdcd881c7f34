/**
 * Starts the stand-in daemon (fake-daemon.mjs) for a BPROXY_HOME: copied to `<tmp>/bin/daemon.mjs`
 * so that the client's identity check (script name + BPROXY_HOME) accepts it, and stopped in cleanup.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';

export interface FakeDaemon {
  /** A scratch directory of the fake's own (for files a test writes, like screenshots). */
  readonly dir: string;
  stop(): Promise<void>;
}

export async function startFakeDaemon(home: string): Promise<FakeDaemon> {
  const dir = mkdtempSync(join(tmpdir(), 'bproxy-fake-'));
  mkdirSync(join(dir, 'bin'));
  const script = join(dir, 'bin', 'daemon.mjs');
  copyFileSync(join(import.meta.dirname, 'fake-daemon.mjs'), script);
  const fake = spawn(process.execPath, [script], {
    env: { BPROXY_HOME: home, BPROXY_FAKE_VERSION: BPROXY_VERSION },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    fake.stdout.once('data', () => resolve());
    fake.once('exit', (code) => reject(new Error(`fake daemon exited with ${code}`)));
  });
  return {
    dir,
    async stop() {
      if (fake.exitCode === null) {
        fake.kill('SIGTERM');
        await new Promise((resolve) => fake.once('exit', resolve));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
