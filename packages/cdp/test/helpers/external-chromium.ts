/**
 * A Chromium the tests start themselves, as a user would: --remote-debugging-port=0 and its own
 * profile, so the driver has something to attach to that it did not launch. Started and closed
 * (bounded: SIGTERM, SIGKILL after, profile removed) by tests/kit.
 */
import type { ChildProcess } from 'node:child_process';
import { startDebuggableChromium } from '../../../../tests/kit/chromium';

export interface ExternalChromium {
  process: ChildProcess;
  userDataDir: string;
  stop(): Promise<void>;
}

export async function startExternalChromium(): Promise<ExternalChromium> {
  const chromium = await startDebuggableChromium({ prefix: 'bproxy-external-chromium-' });
  return { process: chromium.process, userDataDir: chromium.userDataDir, stop: () => chromium.close() };
}
