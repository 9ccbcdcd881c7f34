/**
 * drop (files dropped onto a drop zone) through the daemon with a scripted browser: the same door as
 * upload — the paths are checked against the allowed folders before anything is forwarded, so a
 * refusal never reaches the browser —, the browser gets the checked real paths, the agent's answer
 * names the files by name and size, and a browser running elsewhere is refused.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { okData, startDaemon } from '../harness';
import { fileDoor } from '../helpers/file-door';
import { scriptedLauncher } from '../helpers/scripted-launcher';

const door = fileDoor('drop', ['photo.png', 'png bytes']);
const { allowed, outside, sessionWithTab } = door;

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
    door.own(d);
    const { session } = okData<{ session: string }>(await d.call('tab.open', { url: 'http://x.test/' }));
    const res = await d.call('drop', { target: zone, files: [join(allowed, 'photo.png')] }, session);
    expect(res.ok ? '' : res.error.code).toBe('UNSUPPORTED_ACTION');
    expect(remote.drivers.flatMap((r) => r.received).some((r) => r.action === 'drop')).toBe(false);
  });
});
