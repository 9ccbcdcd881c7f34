/**
 * drop (files dropped onto a drop zone) through the daemon with a scripted browser: the same door as
 * upload — the paths are checked against the allowed folders before anything is forwarded, so a
 * refusal never reaches the browser —, the browser gets the checked real paths, the agent's answer
 * names the files by name and size, and a browser running elsewhere is refused.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';
import { scriptedLauncher } from '../helpers/scripted-launcher';

const allowed = mkdtempSync(join(tmpdir(), 'bproxy-drop-allowed-'));
const outside = mkdtempSync(join(tmpdir(), 'bproxy-drop-outside-'));
writeFileSync(join(allowed, 'photo.png'), 'png bytes');
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
    req.action === 'drop'
      ? { ok: true, data: { url: 'http://x/', title: 'Page', navigated: false } }
      : e.defaultAnswer(req);
  const created = okData<{ session: string; tmpDir: string }>(await d.call('session.create', {}));
  okData(await d.call('tab.open', { url: 'http://x/' }, created.session));
  return { session: created.session, folder: created.tmpDir, d, e };
}

const zone = { selector: '#drop' };

describe('drop through the daemon', () => {
  it('refuses files outside the allowed folders, "..", and links out before anything reaches the browser', async () => {
    const { session, folder, d, e } = await sessionWithTab();
    symlinkSync(join(outside, 'secret.txt'), join(folder, 'link.txt'));
    writeFileSync(join(folder, 'ok.txt'), 'ok');
    for (const files of [
      [join(outside, 'secret.txt')],
      [`${folder}/../x.txt`],
      [`${folder}/../${folder.split('/').pop() ?? ''}/ok.txt`],
      ['link.txt'],
      [join(allowed, 'photo.png'), join(outside, 'secret.txt')],
    ]) {
      const res = await d.call('drop', { target: zone, files }, session);
      expect(res.ok, files.join(' ')).toBe(false);
      if (!res.ok) expect(res.error.code).toBe('PATH_NOT_ALLOWED');
    }
    expect(e.received.some((r) => r.action === 'drop')).toBe(false);
  });

  it('forwards the checked real paths and answers the files dropped by name and size', async () => {
    const { session, folder, d, e } = await sessionWithTab();
    writeFileSync(join(folder, 'note.txt'), 'hello');
    const res = okData<{ files: unknown; navigated: boolean }>(
      await d.call(
        'drop',
        { target: zone, files: ['note.txt', join(allowed, 'photo.png')], at: { x: 4, y: 4 } },
        session,
      ),
    );
    expect(res.files).toEqual([
      { file: 'note.txt', bytes: 5 },
      { file: 'photo.png', bytes: 9 },
    ]);
    const forwarded = e.received.find((r) => r.action === 'drop');
    expect(forwarded?.params).toEqual({
      target: zone,
      at: { x: 4, y: 4 },
      files: [
        { path: join(folder, 'note.txt'), name: 'note.txt', type: 'text/plain' },
        { path: join(allowed, 'photo.png'), name: 'photo.png', type: 'image/png' },
      ],
    });
  });

  it('refuses drop on a browser that runs elsewhere (a remote endpoint), which could not read a path here', async () => {
    const remote = scriptedLauncher('farm', 'remote');
    const d = await startDaemon({ launchers: [remote.launcher], allowedFolders: [allowed] });
    daemon = d;
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'http://x.test/' }));
    const res = await d.call('drop', { target: zone, files: [join(allowed, 'photo.png')] }, session);
    expect(res.ok ? '' : res.error.code).toBe('UNSUPPORTED_ACTION');
    expect(remote.drivers.flatMap((r) => r.received).some((r) => r.action === 'drop')).toBe(false);
  });
});
