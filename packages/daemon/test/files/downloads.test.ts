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
import { dirname, join, normalize } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DriverDownloadMessage, SessionId, TabHandle } from '@bproxy/protocol';
import { downloadFileName, EXTENSION_DOWNLOAD_FOLDER, isRefusedDownloadType } from '@bproxy/protocol';
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

describe("downloads from the user's Chrome (the extension)", () => {
  /** The user's Downloads folder with the extension's bproxy-downloads/<guid>/ in it, and a reporter. */
  function extension() {
    const base = setup();
    const user = join(dirname(base.session.tmpDir), '..', 'UserDownloads');
    mkdirSync(join(user, EXTENSION_DOWNLOAD_FOLDER), { recursive: true });
    const client = { key: 'c1', kind: 'extension' } as ClientRecord;
    let n = 0;
    /** Reports download `guid` as the extension does: started, then ended with where Chrome put it. */
    const report = (path: string, state: DriverDownloadMessage['state'], guid: string) => {
      const msg = {
        type: 'download' as const,
        tabId: 7,
        guid,
        url: `http://x/${++n}`,
        name: 'r.csv',
        bytes: 0,
      };
      base.downloads.onReport(client, { ...msg, state: 'started' });
      base.downloads.onReport(client, { ...msg, state, bytes: 5, path });
    };
    /** Chrome's file for `guid` under the user's bproxy-downloads/. */
    const placed = (guid: string, bytes: string): string => {
      const dir = join(user, EXTENSION_DOWNLOAD_FOLDER, guid);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'r.csv'), bytes);
      return join(dir, 'r.csv');
    };
    return { ...base, user: normalize(user), report, placed };
  }

  it('files the download Chrome wrote under bproxy-downloads/<guid>/ and removes it and its folder', () => {
    const { report, placed, folder, user, session, downloads } = extension();
    const path = placed('0b6c2f0e-5d4b-4b8e-9a51-3e1f0c2d7a10', 'bytes');
    report(normalize(path), 'completed', '0b6c2f0e-5d4b-4b8e-9a51-3e1f0c2d7a10');
    expect(readFileSync(join(folder, 'r.csv'), 'utf8')).toBe('bytes');
    expect(statSync(join(folder, 'r.csv')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(user, EXTENSION_DOWNLOAD_FOLDER))).toEqual([]);
    expect(downloads.list(session).map((d) => d.state)).toEqual(['completed']);
  });

  it('takes nothing from a path of any other shape: another folder, another guid, a climb out with .., or a linked folder', () => {
    const { report, placed, folder, user, session, downloads } = extension();
    // The user's own file beside the bproxy folder, named by a report as if Chrome had put it there.
    const own = join(user, 'own.txt');
    writeFileSync(own, 'the user');
    report(own, 'completed', 'g1');
    // Another download's folder.
    const other = placed('g2', 'other');
    report(other, 'completed', 'g3');
    // A path that climbs out with `..`.
    report(`${join(user, EXTENSION_DOWNLOAD_FOLDER, 'g4')}/../../own.txt`, 'completed', 'g4');
    // The guid's folder is a link to a folder of the user's.
    const secret = join(user, 'secret');
    mkdirSync(secret);
    writeFileSync(join(secret, 'r.csv'), 'secret');
    symlinkSync(secret, join(user, EXTENSION_DOWNLOAD_FOLDER, 'g5'));
    report(join(user, EXTENSION_DOWNLOAD_FOLDER, 'g5', 'r.csv'), 'completed', 'g5');
    expect(readFileSync(own, 'utf8')).toBe('the user');
    expect(readFileSync(other, 'utf8')).toBe('other');
    expect(readFileSync(join(secret, 'r.csv'), 'utf8')).toBe('secret');
    expect(readdirSync(folder)).toEqual([]);
    expect(downloads.list(session).map((d) => d.state)).toEqual([
      'canceled',
      'canceled',
      'canceled',
      'canceled',
    ]);
  });
});
