/**
 * The worker's own log: a ring buffer of structured lines that `debug.log` returns, mirrored to the
 * console for people reading the service worker's DevTools. Never holds secrets (tokens are not logged).
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogEntry = { ts: number; level: LogLevel; event: string } & Record<string, unknown>;

export class WorkerLog {
  private readonly entries: LogEntry[] = [];

  constructor(
    private readonly capacity = 500,
    private readonly now: () => number = Date.now,
    private readonly mirror: boolean = true,
  ) {}

  write(level: LogLevel, event: string, fields: Record<string, unknown> = {}): void {
    const entry: LogEntry = { ...fields, ts: this.now(), level, event };
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    if (this.mirror && level !== 'debug') {
      const line = `[bproxy] ${event} ${JSON.stringify(fields)}`;
      if (level === 'error') console.error(line);
      else if (level === 'warn') console.warn(line);
      else console.info(line);
    }
  }

  debug(event: string, fields?: Record<string, unknown>): void {
    this.write('debug', event, fields);
  }
  info(event: string, fields?: Record<string, unknown>): void {
    this.write('info', event, fields);
  }
  warn(event: string, fields?: Record<string, unknown>): void {
    this.write('warn', event, fields);
  }
  error(event: string, fields?: Record<string, unknown>): void {
    this.write('error', event, fields);
  }

  /** The newest `limit` entries, oldest first. */
  tail(limit: number): LogEntry[] {
    return this.entries.slice(-limit).map((e) => ({ ...e }));
  }
}
