/**
 * The daemon's filing of downloads (files/downloads.ts), driven by the reports a driver sends: the
 * name a page suggests is cleaned and never overwrites or follows a link; stopped and unattributed
 * downloads leave nothing in the session's folder or the staging folder.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DriverDownloadMessage, SessionId, TabHandle } from '@bproxy/protocol';
import { downloadFileName, isRefusedDownloadType } from '@bproxy/protocol';
import type { ClientRecord } from '../../src/browsers/clients';
import { Downloads, downloadStaging } from '../../src/files/downloads';
import type { SessionRecord, SessionRegistry, TabRecord } from '../../src/sessions/sessions';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function setup() {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-downloads-'));
  homes.push(home);
  const tmpRoot = join(home, 'tmp');
  const session = { id: 's1' as SessionId, tmpDir: join(tmpRoot, 's1') } as SessionRecord;
  mkdirSync(session.tmpDir, { recursive: true, mode: 0o700 });
  const tab = { session: session.id, handle: 't1' as TabHandle, clientKey: 'c1', rawTabId: 7 } as TabRecord;
  const sessions = {
    byRaw: (key: string, raw: number) => (key === 'c1' && raw === 7 ? tab : undefined),
    get: (id: SessionId) => (id === session.id ? session : undefined),
  } as unknown as SessionRegistry;
  const staging = downloadStaging(home);
  mkdirSync(staging, { mode: 0o700 });
  const downloads = new Downloads({ sessions, tmpRoot, downloadMaxBytes: 1000 });
  const client = { key: 'c1' } as ClientRecord;
  let n = 0;
  /** One download, started then ended as `state` with `bytes` staged. */
  const download = (name: string, state: DriverDownloadMessage['state'], bytes: string, tabId = 7) => {
    const guid = `guid-${++n}`;
    const base = { type: 'download' as const, tabId, guid, url: `http://x/${n}`, name, bytes: 0 };
    downloads.onReport(client, { ...base, state: 'started' });
    writeFileSync(join(staging, guid), bytes);
    downloads.onReport(client, { ...base, state, bytes: bytes.length });
    return guid;
  };
  return { session, staging, downloads, download, folder: join(session.tmpDir, 'downloads') };
}

describe('downloads filed by the daemon', () => {
  it('cleans the suggested name: no path parts, no leading dots, never empty', () => {
    expect(downloadFileName('../../etc/passwd')).toBe('passwd');
    expect(downloadFileName('..\\..\\evil.txt')).toBe('evil.txt');
    expect(downloadFileName('..')).toBe('download');
    expect(downloadFileName('.bashrc')).toBe('bashrc');
    expect(downloadFileName('a\u0000b.txt')).toBe('a_b.txt');
    expect(isRefusedDownloadType('setup.EXE')).toBe(true);
    expect(isRefusedDownloadType('report.csv')).toBe(false);
  });

  it('files a completed download 0600 in the session folder, never overwriting one of the same name', () => {
    const { downloads, download, folder, session, staging } = setup();
    download('../report.csv', 'completed', 'first');
    download('report.csv', 'completed', 'second');
    expect(readFileSync(join(folder, 'report.csv'), 'utf8')).toBe('first');
    expect(readFileSync(join(folder, 'report (2).csv'), 'utf8')).toBe('second');
    expect(statSync(join(folder, 'report.csv')).mode & 0o777).toBe(0o600);
    expect(downloads.list(session).map((d) => d.state)).toEqual(['completed', 'completed']);
    expect(readdirSync(staging)).toEqual([]);
  });

  it('never writes through a link planted at the name: the download takes the next name', () => {
    const { download, folder, session } = setup();
    mkdirSync(folder, { mode: 0o700 });
    const outside = join(session.tmpDir, '..', 'outside.txt');
    writeFileSync(outside, 'untouched');
    symlinkSync(outside, join(folder, 'notes.txt'));
    download('notes.txt', 'completed', 'downloaded');
    expect(readFileSync(outside, 'utf8')).toBe('untouched');
    expect(lstatSync(join(folder, 'notes.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(folder, 'notes (2).txt'), 'utf8')).toBe('downloaded');
  });

  it('keeps nothing of a download over the cap, of a refused type, cancelled, or of a tab no session holds', () => {
    const { downloads, download, folder, session, staging } = setup();
    download('big.bin', 'too_large', 'x'.repeat(2000));
    download('tool.exe', 'type_refused', '');
    download('gone.txt', 'canceled', 'partial');
    download('user.txt', 'completed', 'the user', 99);
    expect(readdirSync(folder)).toEqual([]);
    expect(readdirSync(staging)).toEqual([]);
    expect(downloads.list(session).map((d) => [d.state, d.code])).toEqual([
      ['refused', 'DOWNLOAD_TOO_LARGE'],
      ['refused', 'DOWNLOAD_TYPE_REFUSED'],
      ['canceled', undefined],
    ]);
  });
});
