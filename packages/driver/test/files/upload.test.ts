/**
 * The driver kit's side of upload, with a scripted tab: the chooser is intercepted only while the
 * action runs, a file the input's accept or single mode refuses is never set, and a click that opens
 * no chooser answers NO_FILE_CHOOSER.
 */
import { describe, expect, it } from 'vitest';
import {
  acceptAttribute,
  acceptTakes,
  DriverFailure,
  uploadThroughChooser,
  type ChooserPage,
  type FileChooserOpened,
} from '../../src/index';

const file = (name: string, type: string) => ({ path: `/f/${name}`, name, type });

function scriptedTab(opened: FileChooserOpened | null, accept: string) {
  const calls: string[] = [];
  let fire: ((event: FileChooserOpened) => void) | undefined;
  const page: ChooserPage = {
    interceptChooser: (enabled) => {
      calls.push(`intercept ${enabled}`);
      return Promise.resolve();
    },
    nextChooser: () => ({
      opened: new Promise<FileChooserOpened>((resolve) => (fire = resolve)),
      cancel: () => calls.push('cancel'),
    }),
    acceptOf: () => Promise.resolve(accept),
    setFiles: (id, paths) => {
      calls.push(`set ${id} ${paths.join(',')}`);
      return Promise.resolve();
    },
  };
  const click = () => {
    calls.push('click');
    if (opened !== null) fire?.(opened);
    return Promise.resolve();
  };
  return { page, click, calls };
}

const codeOf = async (work: Promise<void>) =>
  work.then(
    () => 'ok',
    (error: unknown) => (error instanceof DriverFailure ? error.error.code : String(error)),
  );

describe('upload in the driver kit', () => {
  it('answers the chooser the click opened, intercepting only around it', async () => {
    const tab = scriptedTab({ mode: 'selectMultiple', backendNodeId: 7 }, 'image/*,.pdf');
    await uploadThroughChooser(
      tab.page,
      tab.click,
      [file('a.png', 'image/png'), file('b.pdf', '')],
      () => 5_000,
    );
    expect(tab.calls).toEqual([
      'intercept true',
      'click',
      'set 7 /f/a.png,/f/b.pdf',
      'cancel',
      'intercept false',
    ]);
  });

  it('sets nothing the input refuses: a type outside accept, two files for one', async () => {
    const typed = scriptedTab({ mode: 'selectMultiple', backendNodeId: 7 }, '.txt');
    expect(
      await codeOf(uploadThroughChooser(typed.page, typed.click, [file('a.png', 'image/png')], () => 5_000)),
    ).toBe('FILE_NOT_ACCEPTED');
    const single = scriptedTab({ mode: 'selectSingle', backendNodeId: 7 }, '');
    const two = [file('a.txt', 'text/plain'), file('b.txt', 'text/plain')];
    expect(await codeOf(uploadThroughChooser(single.page, single.click, two, () => 5_000))).toBe(
      'FILE_NOT_ACCEPTED',
    );
    for (const tab of [typed, single]) {
      expect(tab.calls.some((c) => c.startsWith('set'))).toBe(false);
      expect(tab.calls.at(-1)).toBe('intercept false');
    }
  });

  it('answers NO_FILE_CHOOSER when the click opened none, and stops intercepting', async () => {
    const tab = scriptedTab(null, '');
    expect(
      await codeOf(uploadThroughChooser(tab.page, tab.click, [file('a.txt', 'text/plain')], () => 50)),
    ).toBe('NO_FILE_CHOOSER');
    expect(tab.calls.at(-1)).toBe('intercept false');
  });

  it('reads accept the way a browser does: extensions, type/*, exact types, any when empty', () => {
    expect(acceptTakes('', file('x.bin', ''))).toBe(true);
    expect(acceptTakes('.PDF, .txt', file('cv.pdf', 'application/pdf'))).toBe(true);
    expect(acceptTakes('image/*', file('a.png', 'image/png'))).toBe(true);
    expect(acceptTakes('image/*', file('a.txt', 'text/plain'))).toBe(false);
    expect(acceptTakes('text/csv', file('a.csv', 'text/csv'))).toBe(true);
    expect(acceptAttribute(['id', 'doc', 'accept', '.txt'])).toBe('.txt');
    expect(acceptAttribute(undefined)).toBe('');
  });
});
