/**
 * host.log: JSON lines with the event and its scalar fields, 0600 in a 0700 folder, rotated to
 * host.log.1 at the size limit, secret- and content-named fields redacted, never following a symlink,
 * and never throwing when it cannot write.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HostLogFile, hostDir } from '../src/host-log';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function dir(): string {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-hostlog-'));
  roots.push(root);
  return hostDir(root);
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('host.log', () => {
  it('writes one JSON line per event, 0600 in a 0700 folder, like the daemon log', () => {
    const log = new HostLogFile({ dir: dir(), now: () => 1234 });
    log.info('start', { version: '0.1.0', port: 9615, started: false, missing: undefined });
    log.error('garbage', { reason: 'not JSON' });
    log.close();
    expect(lines(log.path)).toEqual([
      {
        level: 'info',
        ts: 1234,
        pid: process.pid,
        event: 'start',
        version: '0.1.0',
        port: 9615,
        started: false,
      },
      { level: 'error', ts: 1234, pid: process.pid, event: 'garbage', reason: 'not JSON' },
    ]);
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(log.path, '..')).mode & 0o777).toBe(0o700);
  });

  it('tightens a folder others could read', () => {
    const folder = dir();
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    const log = new HostLogFile({ dir: folder });
    log.info('start');
    log.close();
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });

  it('redacts fields named like secrets or content, and cuts long strings', () => {
    const log = new HostLogFile({ dir: dir() });
    log.info('oops', {
      token: 'secret-token',
      pairingCode: 'ABCD-EFGH',
      text: 'page text',
      reason: 'x'.repeat(1000),
    });
    log.close();
    const [line] = lines(log.path);
    expect(line).toMatchObject({ token: '[redacted]', pairingCode: '[redacted]', text: '[redacted]' });
    expect(String(line?.reason).length).toBeLessThan(320);
    expect(readFileSync(log.path, 'utf8')).not.toMatch(/secret-token|ABCD-EFGH|page text/);
  });

  it('rotates to host.log.1 before it would pass the limit, keeping one old file', () => {
    const log = new HostLogFile({ dir: dir(), maxBytes: 1000 });
    for (let i = 0; i < 40; i++) log.info('tick', { i });
    log.close();
    const current = readFileSync(log.path, 'utf8');
    const previous = readFileSync(`${log.path}.1`, 'utf8');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(1000);
    expect(Buffer.byteLength(previous)).toBeLessThanOrEqual(1000);
    expect(lines(log.path).at(-1)).toMatchObject({ i: 39 });
    expect(lines(`${log.path}.1`).at(-1)?.i).toBe((lines(log.path)[0]?.i as number) - 1);
    expect(statSync(`${log.path}.1`).mode & 0o777).toBe(0o600);
  });

  it('never follows a symlink planted as host.log, and drops the line instead of throwing', () => {
    const folder = dir();
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const target = join(folder, '..', 'elsewhere');
    writeFileSync(target, 'untouched');
    symlinkSync(target, join(folder, 'host.log'));
    const log = new HostLogFile({ dir: folder });
    expect(() => log.info('start')).not.toThrow();
    expect(log.dropped).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('untouched');
  });
});
