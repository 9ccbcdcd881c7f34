/**
 * The driver's own recent log, answered by `debug.log`: a ring of structured entries. Never holds
 * secrets: URLs of remote endpoints are redacted before they get here.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEntry {
  ts: number;
  level: LogLevel;
  msg: string;
  [field: string]: unknown;
}

export class DriverLog {
  private readonly entries: LogEntry[] = [];

  constructor(
    private readonly capacity = 500,
    private readonly sink?: (entry: LogEntry) => void,
  ) {}

  write(level: LogLevel, msg: string, fields: Record<string, unknown> = {}): void {
    const entry: LogEntry = { ...fields, ts: Date.now(), level, msg };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    this.sink?.(entry);
  }

  recent(limit: number): LogEntry[] {
    return this.entries.slice(-limit);
  }
}
