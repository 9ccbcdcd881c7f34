import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, DailyFileDestination } from '../../src/logs/logger';
import { until } from '../harness';

describe('logs', () => {
  it('writes JSON lines into one file per local day and switches at midnight', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bproxy-logs-'));
    let now = new Date(2026, 4, 8, 23, 59, 59).getTime();
    const dest = new DailyFileDestination(dir, () => now);
    dest.write('{"a":1}\n');
    const firstFile = join(dir, '2026-05-08.log');
    now = new Date(2026, 4, 9, 0, 0, 1).getTime();
    dest.write('{"b":2}\n');
    await dest.end();
    await until(
      () => existsSync(firstFile) && readFileSync(firstFile, 'utf8').length > 0,
      'the first day to be flushed',
    );
    expect(readFileSync(join(dir, '2026-05-08.log'), 'utf8')).toBe('{"a":1}\n');
    expect(readFileSync(join(dir, '2026-05-09.log'), 'utf8')).toBe('{"b":2}\n');
  });

  it('keeps going when the log directory cannot be created', () => {
    const parent = mkdtempSync(join(tmpdir(), 'bproxy-logs-'));
    const blocker = join(parent, 'file');
    writeFileSync(blocker, 'not a directory');
    const dest = new DailyFileDestination(join(blocker, 'logs'));
    expect(() => dest.write('{"x":1}\n')).not.toThrow();
    expect(dest.dropped).toBe(1);
  });

  it('emits the seed fields and redacts secret-looking fields', () => {
    const lines: string[] = [];
    const { logger } = createLogger({ destination: { write: (l: string) => lines.push(l) } });
    logger.info({
      id: 'r1',
      event: 'received',
      action: 'click',
      extensionToken: 'SECRET',
      pairingCode: 'ABCD-EFGH',
    });
    const line = JSON.parse(lines[0] ?? '{}');
    expect(line).toMatchObject({ level: 'info', id: 'r1', event: 'received', action: 'click' });
    expect(typeof line.ts).toBe('number');
    expect(lines[0]).not.toContain('SECRET');
    expect(lines[0]).not.toContain('ABCD-EFGH');
  });

  it('honours the level', () => {
    const lines: string[] = [];
    const { logger } = createLogger({ level: 'warn', destination: { write: (l: string) => lines.push(l) } });
    logger.info({ event: 'quiet' });
    logger.warn({ event: 'loud' });
    expect(lines).toHaveLength(1);
  });
});
