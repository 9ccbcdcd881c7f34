/**
 * upload through the daemon with a scripted browser: the paths are checked before anything is
 * forwarded — a refusal never reaches the browser —, the browser gets the checked real paths with
 * each file's name and type, and the agent's answer names the files set by name and size.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { okData, startDaemon } from '../harness';
import { fileDoor } from '../helpers/file-door';
import { scriptedLauncher } from '../helpers/scripted-launcher';

const door = fileDoor('upload', ['cv.pdf', '%PDF-1.4 tiny']);
const { allowed, outside, sessionWithTab } = door;

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
    door.own(d);
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
