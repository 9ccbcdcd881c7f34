/**
 * The pipe a tool gives "its Chrome" with --remote-debugging-pipe: it writes commands to our fd 3
 * and reads answers and events from our fd 4, NUL-terminated JSON both ways (the same framing the
 * CDP driver speaks to a browser it launched, so the same transport serves, pointed the other way).
 */
import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import { createPipeTransport, type CdpTransport } from '@bproxy/cdp/wire';

export class PipeUnavailableError extends Error {
  override readonly name = 'PipeUnavailableError';
}

function isStream(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

export interface PipeUpstream {
  readonly transport: CdpTransport;
  /** Resolves once everything written to fd 4 has been handed to the system (bounded by `ms`). */
  flushed(ms: number): Promise<void>;
}

/** Fails early, before a browser is touched, when the tool gave no pipe. */
export function checkPipeFds(): void {
  if (!isStream(3) || !isStream(4)) {
    throw new PipeUnavailableError(
      '--remote-debugging-pipe needs file descriptors 3 (commands in) and 4 (answers out), as a tool ' +
        'that launches Chrome with a pipe provides; started by hand, use --remote-debugging-port=PORT instead',
    );
  }
}

/**
 * Opened once a relay is ready to take its messages: what the tool wrote meanwhile waits in the
 * pipe, where nothing can be lost.
 */
export function openPipeUpstream(): PipeUpstream {
  const fromTool = new Socket({ fd: 3, readable: true, writable: false });
  const toTool = new Socket({ fd: 4, readable: false, writable: true });
  return {
    transport: createPipeTransport(toTool, fromTool),
    flushed: (ms) =>
      new Promise<void>((resolve) => {
        if (toTool.writableFinished || toTool.destroyed) return resolve();
        const timer = setTimeout(resolve, ms);
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        toTool.once('finish', done);
        toTool.once('close', done);
        toTool.end();
      }),
  };
}
