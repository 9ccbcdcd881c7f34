/**
 * upload through the daemon with a scripted browser: the paths are checked before anything is
 * forwarded — a refusal never reaches the browser —, the browser gets the checked real paths with
 * each file's name and type, and the agent's answer names the files set by name and size.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';
import { scriptedLauncher } from '../helpers/scripted-launcher';

const allowed = mkdtempSync(join(tmpdir(), 'bproxy-upload-allowed-'));
const outside = mkdtempSync(join(tmpdir(), 'bproxy-upload-outside-'));
writeFileSync(join(allowed, 'cv.pdf'), '%PDF-1.4 tiny');
writeFileSync(join(outside, 'secret.txt'), 'secret');

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
});
afterAll(() => {
  rmSync(allowed, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function sessionWithTab(): Promise<{
  session: string;
  folder: string;
  d: TestDaemon;
  e: FakeExtension;
}> {
  const d = await startDaemon({ allowedFolders: [allowed] });
  const e = new FakeExtension(d);
  daemon = d;
  ext = e;
  await e.connect();
  e.behaviour = (req) =>
    req.action === 'upload'
      ? { ok: true, data: { url: 'http://x/', title: 'Page', navigated: false } }
      : e.defaultAnswer(req);
  const created = okData<{ session: string; tmpDir: string }>(await d.call('session.create', {}));
  okData(await d.call('tab.open', { url: 'http://x/' }, created.session));
  return { session: created.session, folder: created.tmpDir, d, e };
}

describe('upload through the daemon', () => {
  it('refuses files outside the allowed folders, "..", and links out before anything reaches the browser', async () => {
    const { session, folder, d, e } = await sessionWithTab();
    symlinkSync(join(outside, 'secret.txt'), join(folder, 'link.txt'));
    const sent = e.received.length;
    for (const files of [
      [join(outside, 'secret.txt')],
      [`${folder}/../x.txt`],
      ['link.txt'],
      [join(allowed, 'cv.pdf'), join(outside, 'secret.txt')],
    ]) {
      const res = await d.call('upload', { target: { selector: 'input' }, files }, session);
      expect(res.ok, files.join(' ')).toBe(false);
      if (!res.ok) expect(res.error.code).toBe('PATH_NOT_ALLOWED');
    }
    expect(e.received.length).toBe(sent);
  });

  it('forwards the checked real paths with name and type, and answers the files set by name and size', async () => {
    const { session, folder, d, e } = await sessionWithTab();
    writeFileSync(join(folder, 'note.txt'), 'hello');
    const res = okData<{ files: unknown; navigated: boolean }>(
      await d.call(
        'upload',
        { target: { selector: 'input' }, files: ['note.txt', join(allowed, 'cv.pdf')] },
        session,
      ),
    );
    expect(res.files).toEqual([
      { file: 'note.txt', bytes: 5 },
      { file: 'cv.pdf', bytes: 13 },
    ]);
    const forwarded = e.received.find((r) => r.action === 'upload');
    expect(forwarded?.params.files).toEqual([
      { path: join(folder, 'note.txt'), name: 'note.txt', type: 'text/plain' },
      { path: join(allowed, 'cv.pdf'), name: 'cv.pdf', type: 'application/pdf' },
    ]);
  });

  it('refuses upload on a browser that runs elsewhere (a remote endpoint), which could not read a path here', async () => {
    const remote = scriptedLauncher('farm', 'remote');
    const d = await startDaemon({ launchers: [remote.launcher], allowedFolders: [allowed] });
    daemon = d;
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'http://x.test/' }));
    const res = await d.call(
      'upload',
      { target: { selector: 'input' }, files: [join(allowed, 'cv.pdf')] },
      session,
    );
    expect(res.ok ? '' : res.error.code).toBe('UNSUPPORTED_ACTION');
    expect(remote.drivers.flatMap((r) => r.received).some((r) => r.action === 'upload')).toBe(false);
  });
});
