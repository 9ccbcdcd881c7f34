/**
 * Structured JSON logs (pino) into BPROXY_HOME/logs/YYYY-MM-DD.log, one file per local day.
 * Logging never takes the daemon down: an unwritable directory or a full disk drops lines, and the
 * destination retries on the next day's file. Secrets are redacted by path as a second line of
 * defence; the first is that no event carries them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import SonicBoom from 'sonic-boom';

export type Logger = pino.Logger;

export const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'headers["sec-websocket-protocol"]',
  'req.headers["sec-websocket-protocol"]',
  'token',
  'daemonToken',
  'extensionToken',
  'pairingCode',
  'body.code',
];

function localDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A pino destination that switches to a new file when the local date changes. */
export class DailyFileDestination {
  private day = '';
  private stream: SonicBoom | null = null;
  /** Lines dropped because the file could not be written; exposed for tests and debug.status. */
  dropped = 0;

  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  write(line: string): boolean {
    const day = localDate(this.now());
    if (day !== this.day) this.open(day);
    if (!this.stream) {
      this.dropped++;
      return true;
    }
    try {
      this.stream.write(line);
    } catch {
      this.dropped++;
    }
    return true;
  }

  /** The file lines of the given day go to. */
  pathFor(day: string): string {
    return join(this.dir, `${day}.log`);
  }

  private open(day: string): void {
    this.day = day;
    void this.closeStream();
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const stream = new SonicBoom({ dest: this.pathFor(day), mkdir: true, sync: false, mode: 0o600 });
      // A full disk or a revoked directory must not crash the daemon: drop and carry on.
      stream.on('error', () => {
        this.dropped++;
        if (this.stream === stream) this.stream = null;
      });
      this.stream = stream;
    } catch {
      this.stream = null;
    }
  }

  flushSync(): void {
    try {
      this.stream?.flushSync();
    } catch {
      // best effort at shutdown
    }
  }

  /** Flushes and closes the current file; resolves once it is closed. */
  end(): Promise<void> {
    return this.closeStream();
  }

  private closeStream(): Promise<void> {
    const s = this.stream;
    this.stream = null;
    if (!s) return Promise.resolve();
    return new Promise<void>((resolve) => {
      s.once('close', () => resolve());
      s.once('error', () => resolve());
      try {
        s.end();
      } catch {
        resolve();
      }
    });
  }
}

export interface LoggerOptions {
  level?: string;
  /** Where lines go; defaults to nowhere (tests) when neither this nor `dir` is given. */
  destination?: { write(line: string): unknown };
  dir?: string;
}

export function createLogger(options: LoggerOptions = {}): {
  logger: Logger;
  destination: DailyFileDestination | null;
} {
  const file = options.dir ? new DailyFileDestination(options.dir) : null;
  const destination = options.destination ?? file ?? { write: () => true };
  const logger = pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      timestamp: false,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => ({ ts: Date.now() }),
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    },
    destination,
  );
  return { logger, destination: file };
}
