/**
 * The scratch-file sandbox (BPROXY_HOME/agent/files): relative paths only, no way out through "..",
 * absolute paths or symbolic links, size caps, 0600 files — and what it reads back is fenced as data.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FILE_MAX_BYTES,
  SANDBOX_MAX_BYTES,
  SANDBOX_MAX_FILES,
  scratchFileTools,
} from '../../src/tools/scratch-files';
import { runLocalTool } from '../../src/tools/local-tool';

let base: string;
let root: string;
let tools: ReturnType<typeof scratchFileTools>;
const run = (index: 0 | 1 | 2, args: Record<string, unknown>) =>
  runLocalTool(tools[index] as unknown as Parameters<typeof runLocalTool>[0], args, {
    chatId: 'c1',
    sharedNotes: false,
  });
const save = (args: Record<string, unknown>) => run(0, args);
const read = (args: Record<string, unknown>) => run(1, args);
const list = () => run(2, {});

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'bproxy-scratch-'));
  root = join(base, 'agent', 'files');
  tools = scratchFileTools(root);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('the scratch-file sandbox', () => {
  it('saves, appends, lists and reads back files in folders, with mode 0600, reads fenced as data', () => {
    expect(save({ path: 'notes/today.txt', content: 'cart: mug' })).toMatchObject({
      ok: true,
      summary: 'saved 9 bytes to notes/today.txt',
    });
    expect(save({ path: 'notes/today.txt', content: ', teapot', append: true })).toMatchObject({ ok: true });
    expect(statSync(join(root, 'notes', 'today.txt')).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'notes')).mode & 0o777).toBe(0o700);
    const back = read({ path: 'notes/today.txt' });
    expect(back.ok).toBe(true);
    expect(back.content).toMatch(
      /^<<untrusted-data [0-9a-f]+>> source=file notes\/today.txt\ncart: mug, teapot\n<<end untrusted-data/,
    );
    expect(list().content).toContain('notes/today.txt (17 bytes)');
  });

  it.each([
    ['an absolute path', '/etc/passwd'],
    ['a path climbing out with ..', '../keys.json'],
    ['.. in the middle', 'a/../../keys.json'],
    ['a backslash path', '..\\keys.json'],
    ['a drive letter', 'C:/Windows/win.ini'],
    ['a home path', '~/.ssh/id_rsa'],
    ['a NUL byte', 'a\0b'],
  ])('refuses %s for reads and writes', (_what, path) => {
    expect(save({ path, content: 'x' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(read({ path })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(existsSync(join(base, 'agent', 'keys.json'))).toBe(false);
  });

  it('follows no symbolic link: not a linked folder, not a linked file, for reads or writes', () => {
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(root, { recursive: true });
    symlinkSync(outside, join(root, 'linked'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret.txt'));
    expect(read({ path: 'linked/secret.txt' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(save({ path: 'linked/new.txt', content: 'x' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(read({ path: 'secret.txt' })).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(save({ path: 'secret.txt', content: 'overwritten' })).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
    });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(list().content).not.toContain('secret');
  });

  it('caps a file at 1 MiB, appends included', () => {
    expect(save({ path: 'big.txt', content: 'x'.repeat(FILE_MAX_BYTES) })).toMatchObject({ ok: true });
    expect(save({ path: 'big.txt', content: 'y', append: true })).toMatchObject({
      ok: false,
      code: 'BAD_REQUEST',
    });
    expect(statSync(join(root, 'big.txt')).size).toBe(FILE_MAX_BYTES);
  });

  it('caps the folder at 1,000 files in all, subfolders included, yet lets a file there be rewritten', () => {
    // Files already there (a sparse empty set written directly), spread over two folders.
    for (const folder of ['a', 'b']) mkdirSync(join(root, folder), { recursive: true, mode: 0o700 });
    for (let i = 0; i < SANDBOX_MAX_FILES - 1; i += 1)
      writeFileSync(join(root, i % 2 === 0 ? 'a' : 'b', `f${i}.txt`), '');
    expect(save({ path: 'last.txt', content: 'fits' })).toMatchObject({ ok: true });
    const refusal = save({ path: 'b/one-more.txt', content: 'x' });
    expect(refusal).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(refusal.content).toContain(`${SANDBOX_MAX_FILES} files`);
    expect(existsSync(join(root, 'b', 'one-more.txt'))).toBe(false);
    expect(save({ path: 'a/f0.txt', content: 'rewritten' })).toMatchObject({ ok: true });
  });

  it('caps the folder at 50 MiB in all, appends included', () => {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    // Sparse files of the largest size, written directly: 1 MiB short of the cap.
    const full = SANDBOX_MAX_BYTES / FILE_MAX_BYTES - 1;
    for (let i = 0; i < full; i += 1) {
      writeFileSync(join(root, `big${i}.bin`), '');
      truncateSync(join(root, `big${i}.bin`), FILE_MAX_BYTES);
    }
    expect(save({ path: 'last.txt', content: 'x'.repeat(FILE_MAX_BYTES - 2) })).toMatchObject({ ok: true });
    expect(save({ path: 'last.txt', content: 'y', append: true })).toMatchObject({ ok: true });
    // One byte is left: a new file of two is refused, of one fits; then an append is refused.
    const refusal = save({ path: 'other.txt', content: 'zz' });
    expect(refusal).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(refusal.content).toContain(`${SANDBOX_MAX_BYTES / 1024 / 1024} MiB`);
    expect(save({ path: 'other.txt', content: 'z' })).toMatchObject({ ok: true });
    const append = save({ path: 'last.txt', content: 'w', append: true });
    expect(append).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(append.content).toContain(`${SANDBOX_MAX_BYTES / 1024 / 1024} MiB`);
    expect(statSync(join(root, 'last.txt')).size).toBe(FILE_MAX_BYTES - 1);
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('z');
  });

  it('reads long files in slices and says how to go on', () => {
    save({ path: 'long.txt', content: 'a'.repeat(60_000) });
    expect(read({ path: 'long.txt' }).content).toMatch(/read_file with offset=50000 for more]$/);
    expect(read({ path: 'long.txt', offset: 50_000 }).summary).toBe('read_file: 10000 characters');
  });

  it('names a bad argument instead of guessing', () => {
    expect(save({ path: 'a.txt' }).content).toMatch(/^BAD_REQUEST: save_file: content: /);
    expect(save({ path: 'a.txt', content: 'x', mode: 777 }).content).toMatch(/^BAD_REQUEST: save_file: /);
  });

  it('tells a missing file from a refused one', () => {
    expect(read({ path: 'nothing.txt' }).content).toMatch(/^BAD_REQUEST: no such file/);
    expect(read({ path: 'nowhere/nothing.txt' }).content).toMatch(/^BAD_REQUEST: no such file/);
  });
});
