/**
 * The bridge's log: JSON lines in bproxy's format (`level`, `ts`, `msg`, then fields) appended to
 * BPROXY_HOME/logs/bridge-YYYY-MM-DD.log (0600 in a 0700 directory). Not stderr: a tool that starts
 * the bridge with a pipe for stderr may never read it, and a full pipe would stall the bridge.
 * Logging never stops the bridge: an unwritable directory drops the lines. Secrets never reach a
 * line — the endpoint token is never logged and remote URLs are redacted before they are — and the
 * redaction list is a second line of defence.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { LogLevel } from './config';

export type BridgeLogger = pino.Logger;

export interface BridgeLog {
  readonly logger: BridgeLogger;
  /** The file lines go to (undefined when logging is off). */
  readonly file: string | undefined;
  flush(): void;
}

function localDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function bridgeLogFile(home: string, now: number = Date.now()): string {
  return join(home, 'logs', `bridge-${localDate(now)}.log`);
}

const OPTIONS: pino.LoggerOptions = {
  base: undefined,
  timestamp: false,
  messageKey: 'msg',
  formatters: { level: (label) => ({ level: label }) },
  mixin: () => ({ ts: Date.now(), pid: process.pid }),
  redact: { paths: ['token', 'authorization', 'headers.authorization'], censor: '[redacted]' },
};

export function openBridgeLog(home: string, level: LogLevel): BridgeLog {
  if (level === 'silent') return { logger: pino({ ...OPTIONS, level }), file: undefined, flush: () => {} };
  const file = bridgeLogFile(home);
  try {
    mkdirSync(join(home, 'logs'), { recursive: true, mode: 0o700 });
    // Synchronous: the bridge logs state changes, not traffic, and its lines must land in order and
    // before process.exit, whatever way the bridge ends.
    const destination = pino.destination({ dest: file, append: true, mkdir: true, sync: true, mode: 0o600 });
    destination.on('error', () => undefined);
    const logger = pino({ ...OPTIONS, level }, destination);
    return {
      logger,
      file,
      flush: () => {
        try {
          destination.flushSync();
        } catch {
          // best effort at exit
        }
      },
    };
  } catch {
    return { logger: pino({ ...OPTIONS, level: 'silent' }), file: undefined, flush: () => {} };
  }
}
