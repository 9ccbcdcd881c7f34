/**
 * The allowed-folder check every file an agent names goes through, on a real file tree: what passes
 * (the session's folder, a configured folder, a folder reached through a link the user made) and every
 * refusal, each with its code, decided before the file is opened.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile, checkFiles, checkOutFile, type FileRules } from '../../src/files/allowed-folders';

const root = mkdtempSync(join(tmpdir(), 'bproxy-allowed-'));
const session = join(root, 'home', 'tmp', 'abcdef');
const allowed = join(root, 'for-agents');
const outside = join(root, 'private');
for (const dir of [session, allowed, outside, join(session, 'sub')]) mkdirSync(dir, { recursive: true });
writeFileSync(join(session, 'note.txt'), 'note');
writeFileSync(join(allowed, 'photo.png'), 'png!');
writeFileSync(join(outside, 'secret.txt'), 'secret');
symlinkSync(join(outside, 'secret.txt'), join(session, 'link-out.txt'));
symlinkSync(outside, join(session, 'dir-out'));
symlinkSync(join(allowed, 'photo.png'), join(session, 'link-in.png'));
symlinkSync(allowed, join(root, 'agents-link'));

const rules: FileRules = { sessionFolder: session, folders: [session, allowed], maxBytes: 5 };
afterAll(() => rmSync(root, { recursive: true, force: true }));

const codeOf = (path: string, r: FileRules = rules) => {
  const checked = checkFile(path, r);
  return checked.ok ? 'ok' : checked.code;
};

describe('files an agent may hand a page (allowed folders)', () => {
  it("takes a file of the session's folder (relative or absolute) and of a configured folder, by its real path", () => {
    expect(checkFile('note.txt', rules)).toEqual({
      ok: true,
      file: { path: join(session, 'note.txt'), name: 'note.txt', bytes: 4, type: 'text/plain' },
    });
    expect(codeOf(join(session, 'note.txt'))).toBe('ok');
    expect(checkFile(join(allowed, 'photo.png'), rules)).toMatchObject({
      ok: true,
      file: { path: join(allowed, 'photo.png'), type: 'image/png' },
    });
    // A link inside that stays inside is the file it points to.
    expect(checkFile('link-in.png', rules)).toMatchObject({ ok: true, file: { name: 'photo.png' } });
    // A folder the user named through a link of their own counts as itself.
    expect(
      codeOf(join(root, 'agents-link', 'photo.png'), { ...rules, folders: [join(root, 'agents-link')] }),
    ).toBe('ok');
  });

  it('refuses a path outside every allowed folder, without looking whether it exists', () => {
    expect(codeOf(join(outside, 'secret.txt'))).toBe('PATH_NOT_ALLOWED');
    expect(codeOf('/etc/hostname')).toBe('PATH_NOT_ALLOWED');
    // No existence oracle: a missing file outside is refused the same way, not FILE_NOT_FOUND.
    expect(codeOf(join(outside, 'no-such-file'))).toBe('PATH_NOT_ALLOWED');
    expect(codeOf(join(outside, 'no-such-folder', 'file'))).toBe('PATH_NOT_ALLOWED');
    expect(codeOf(root)).toBe('PATH_NOT_ALLOWED');
    // The path as written counts: a link of somebody else's outside, even one into an allowed folder.
    expect(codeOf(join(root, 'agents-link', 'photo.png'))).toBe('PATH_NOT_ALLOWED');
  });

  it('refuses any path naming "..", even one that would stay inside', () => {
    expect(codeOf('../../../private/secret.txt')).toBe('PATH_NOT_ALLOWED');
    expect(codeOf(`${session}/sub/../note.txt`)).toBe('PATH_NOT_ALLOWED');
    expect(codeOf('sub\\..\\note.txt')).toBe('PATH_NOT_ALLOWED');
    const checked = checkFile('sub/../note.txt', rules);
    expect(checked.ok ? '' : checked.message).toMatch(/may not name "\.\."/);
  });

  it('refuses a symbolic link out, to a file or through a folder', () => {
    expect(codeOf('link-out.txt')).toBe('PATH_NOT_ALLOWED');
    expect(codeOf(join(session, 'dir-out', 'secret.txt'))).toBe('PATH_NOT_ALLOWED');
    const checked = checkFile('link-out.txt', rules);
    expect(checked.ok ? '' : checked.message).toMatch(/symbolic link/);
  });

  it('answers FILE_NOT_FOUND inside for a missing file, a folder, and a file over the size cap', () => {
    expect(codeOf('missing.txt')).toBe('FILE_NOT_FOUND');
    expect(codeOf('sub')).toBe('FILE_NOT_FOUND');
    writeFileSync(join(session, 'big.txt'), '123456');
    expect(codeOf('big.txt')).toBe('FILE_NOT_FOUND');
  });

  it('refuses the whole list when one file is refused', () => {
    expect(checkFiles(['note.txt', 'link-out.txt'], rules)).toMatchObject({
      ok: false,
      code: 'PATH_NOT_ALLOWED',
    });
    expect(checkFiles(['note.txt', join(allowed, 'photo.png')], rules)).toMatchObject({ ok: true });
  });
});

describe('where the daemon may write a file an agent asked for (pdf --out)', () => {
  const outCode = (path: string) => {
    const checked = checkOutFile(path, rules);
    return checked.ok ? checked.path : checked.code;
  };

  it("writes inside the session's folder or a configured one, new or over a regular file", () => {
    expect(outCode('page.pdf')).toBe(join(session, 'page.pdf'));
    expect(outCode(join(allowed, 'photo.png'))).toBe(join(allowed, 'photo.png'));
  });

  it('refuses outside, "..", a folder that is a link out, an existing link, and a folder itself', () => {
    expect(outCode(join(outside, 'page.pdf'))).toBe('PATH_NOT_ALLOWED');
    expect(outCode('sub/../page.pdf')).toBe('PATH_NOT_ALLOWED');
    expect(outCode(join(session, 'dir-out', 'page.pdf'))).toBe('PATH_NOT_ALLOWED');
    expect(outCode('link-in.png')).toBe('PATH_NOT_ALLOWED');
    expect(outCode('sub')).toBe('PATH_NOT_ALLOWED');
    expect(outCode(join(session, 'no-folder', 'page.pdf'))).toBe('PATH_NOT_ALLOWED');
  });
});
