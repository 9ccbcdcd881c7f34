/**
 * A virtual screen for the headed tier (tests/headed): Xvfb started by the test itself on a display
 * number the X server picks (`-displayfd`: it writes the number it took once it listens, so two runs
 * never race for one number), no TCP listener, and a bounded stop. A headed Chromium is given
 * `DISPLAY` from here; nothing of the machine's own display is used. `.ci/run` and
 * `scripts/ensure.mjs` install Debian's `xvfb` when it is missing, as they do Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stopChildWithin } from './chromium';

const CANDIDATES = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'];

/** The Xvfb binary: XVFB_PATH when it exists, else the first installed candidate. */
export function xvfbPath(): string {
  const found = [process.env.XVFB_PATH, ...CANDIDATES].find((p): p is string => !!p && existsSync(p));
  if (found === undefined) throw new Error('no Xvfb found: install it (Debian: apt-get install -y xvfb)');
  return found;
}

export interface VirtualScreen {
  /** The value for DISPLAY, e.g. ":99". */
  display: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after a bound; never throws. */
  close(): Promise<void>;
}

/** Starts Xvfb on a free display, `width`×`height` at 24 bits; resolves once it accepts clients. */
export async function startXvfb(
  options: { width?: number; height?: number; timeoutMs?: number } = {},
): Promise<VirtualScreen> {
  const { width = 1280, height = 900, timeoutMs = 15_000 } = options;
  const child = spawn(
    xvfbPath(),
    ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const close = (): Promise<void> => stopChildWithin(child);
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-2000);
  });
  const fd = child.stdio[3];
  if (fd === null || fd === undefined || !('on' in fd)) {
    await close();
    throw new Error('Xvfb started without its display pipe');
  }
  try {
    const display = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(
        () => reject(new Error(`Xvfb gave no display within ${timeoutMs} ms`)),
        timeoutMs,
      );
      fd.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const match = /^(\d+)\n/.exec(text);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(`:${match[1]}`);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(`Xvfb ended (${signal ?? `code ${String(code)}`}) before it listened: ${errors.trim()}`),
        );
      });
    });
    return { display, process: child, close };
  } catch (error) {
    await close();
    throw error;
  }
}
