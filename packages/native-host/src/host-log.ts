/**
 * The host's diagnostics: JSON lines (`{"level","ts","pid","event",…fields}`, like the daemon's log)
 * in BPROXY_HOME/host/host.log, rotated to host.log.1 when it would pass 5 MB (one old file kept).
 * stdout belongs to the frames, so this file is the only place a host says anything.
 *
 * Events carry scalar fields only, never a message body: what the browser sends (page content, typed
 * text) and what the host hands back (pairing codes) do not reach this file. As a second line of
 * defence, fields named like secrets or content are written as "[redacted]" and long strings are cut.
 * Writing is synchronous (the host logs a few lines per message) and never throws: a log that cannot
 * be written drops lines rather than take the port down. Files are 0600 in a 0700 directory, opened
 * without following a symbolic link.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  chmodSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'info' | 'warn' | 'error';
export type LogValue = string | number | boolean | null | undefined;
export type LogFields = Readonly<Record<string, LogValue>>;

/** Where the host's diagnostics go. */
export interface HostLog {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export const HOST_LOG_MAX_BYTES = 5 * 1024 * 1024;
const MAX_STRING = 300;
const REDACTED = new Set([
  'token',
  'daemonToken',
  'extensionToken',
  'pairingCode',
  'secret',
  'key',
  'apiKey',
  'password',
  'text',
  'data',
  'input',
]);

/** The folder of host.log (and of the launcher `bproxy host install` writes). */
export function hostDir(home: string): string {
  return join(home, 'host');
}

export function formatLine(level: LogLevel, event: string, fields: LogFields, ts: number): string {
  const line: Record<string, LogValue> = { level, ts, pid: process.pid, event };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || name in line) continue;
    if (REDACTED.has(name)) line[name] = '[redacted]';
    else if (typeof value === 'string' && value.length > MAX_STRING)
      line[name] = `${value.slice(0, MAX_STRING)}…`;
    else line[name] = value;
  }
  return `${JSON.stringify(line)}\n`;
}

export interface HostLogFileOptions {
  readonly dir: string;
  readonly maxBytes?: number;
  readonly now?: () => number;
}

/** host.log with its rotation. */
export class HostLogFile implements HostLog {
  readonly path: string;
  /** Lines that could not be written (a full disk, a folder that is not ours). */
  dropped = 0;
  private fd: number | null = null;
  private size = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(private readonly options: HostLogFileOptions) {
    this.path = join(options.dir, 'host.log');
    this.maxBytes = options.maxBytes ?? HOST_LOG_MAX_BYTES;
    this.now = options.now ?? Date.now;
  }

  info(event: string, fields: LogFields = {}): void {
    this.write('info', event, fields);
  }

  warn(event: string, fields: LogFields = {}): void {
    this.write('warn', event, fields);
  }

  error(event: string, fields: LogFields = {}): void {
    this.write('error', event, fields);
  }

  close(): void {
    if (this.fd !== null) closeQuietly(this.fd);
    this.fd = null;
  }

  private write(level: LogLevel, event: string, fields: LogFields): void {
    const bytes = Buffer.from(formatLine(level, event, fields, this.now()), 'utf8');
    try {
      let fd = this.fd ?? this.open();
      if (this.size > 0 && this.size + bytes.length > this.maxBytes) {
        this.rotate();
        fd = this.open();
      }
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      this.size += bytes.length;
    } catch {
      this.dropped++;
      if (this.fd !== null) closeQuietly(this.fd);
      this.fd = null;
    }
  }

  private open(): number {
    const dir = this.options.dir;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode is filtered by the umask and ignored for a folder that exists: make it exact.
    if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
    const fd = openSync(
      this.path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
      0o600,
    );
    try {
      if (process.platform !== 'win32') fchmodSync(fd, 0o600);
      this.size = fstatSync(fd).size;
    } catch (error) {
      closeQuietly(fd);
      throw error;
    }
    this.fd = fd;
    return fd;
  }

  private rotate(): void {
    if (this.fd !== null) closeQuietly(this.fd);
    this.fd = null;
    renameSync(this.path, `${this.path}.1`);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/** A log that keeps nothing (tests of other parts, and the moment before the file is known). */
export const SILENT_LOG: HostLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
