/**
 * The scratch-file sandbox, `BPROXY_HOME/agent/files`: `save_file`, `read_file` and `list_files`.
 * A path is relative, made of plain names: absolute paths, `..`, backslashes, NUL and drive letters
 * are refused before the filesystem is touched; every existing component on the way must be a real
 * directory (never a symlink), and files are opened with O_NOFOLLOW, so nothing leads outside the
 * folder. Caps: 1 MiB per file, 50 MiB and 1,000 files in all, 8 levels deep; reads return 50,000
 * characters at a time.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { fenceUntrusted } from '@bproxy/tools';
import type { LocalTool } from './local-tool';
import { failure, type ToolRun } from './tool-result';

export const FILE_MAX_BYTES = 1024 * 1024;
export const SANDBOX_MAX_BYTES = 50 * 1024 * 1024;
export const SANDBOX_MAX_FILES = 1000;
const MAX_DEPTH = 8;
const READ_CHARS = 50_000;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

class SandboxRefusal extends Error {}

/** The path's components, or a refusal that says why. */
export function sandboxSegments(path: string): string[] {
  if (path === '' || path.length > 512) throw new SandboxRefusal('the path must be 1-512 characters');
  if (path.includes('\0')) throw new SandboxRefusal('the path contains a NUL character');
  if (path.includes('\\')) throw new SandboxRefusal('use / between folders, not \\');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.startsWith('~'))
    throw new SandboxRefusal('the path must be relative to the scratch folder, not absolute');
  const segments = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..'))
    throw new SandboxRefusal('".." is not allowed: paths stay inside the scratch folder');
  if (segments.length === 0) throw new SandboxRefusal('the path names no file');
  if (segments.length > MAX_DEPTH) throw new SandboxRefusal(`at most ${MAX_DEPTH} levels of folders`);
  for (const s of segments)
    if (s.length > 255) throw new SandboxRefusal('a name is longer than 255 characters');
  return segments;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Walks the folders of `segments` (all but the last), refusing symlinks; creates missing ones when asked. */
function walkFolders(root: string, segments: readonly string[], create: boolean): string | null {
  let dir = root;
  for (const name of segments.slice(0, -1)) {
    dir = join(dir, name);
    const stats = lstatOrNull(dir);
    if (stats === null) {
      if (!create) return null;
      mkdirSync(dir, { mode: 0o700 });
    } else if (stats.isSymbolicLink())
      throw new SandboxRefusal(`${name} is a symbolic link; links are not followed`);
    else if (!stats.isDirectory()) throw new SandboxRefusal(`${name} is a file, not a folder`);
  }
  return dir;
}

interface Usage {
  files: number;
  bytes: number;
}

function usage(dir: string, depth = 0): Usage {
  const total: Usage = { files: 0, bytes: 0 };
  if (depth > MAX_DEPTH) return total;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = usage(path, depth + 1);
      total.files += inner.files;
      total.bytes += inner.bytes;
    } else if (entry.isFile()) {
      total.files += 1;
      total.bytes += lstatSync(path).size;
    }
  }
  return total;
}

function refused(error: unknown): ToolRun {
  if (error instanceof SandboxRefusal)
    return failure(
      'BAD_REQUEST',
      `BAD_REQUEST: ${error.message}\nWhat to do: Use a relative path like notes/today.txt`,
    );
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP')
    return failure('BAD_REQUEST', 'BAD_REQUEST: the file is a symbolic link; links are not followed');
  if (code === 'ENOENT')
    return failure('BAD_REQUEST', 'BAD_REQUEST: no such file\nWhat to do: list_files shows what exists');
  return failure('LOCAL_ERROR', `LOCAL_ERROR: the scratch folder could not be used (${code ?? 'error'})`);
}

function ok(content: string, summary: string): ToolRun {
  return { ok: true, content, summary };
}

type SaveArgs = { path: string; content: string; append?: boolean | undefined };
type ReadArgs = { path: string; offset?: number | undefined };

/** save_file: writes (or appends to) one file of the sandbox, within its caps, mode 0600. */
function saveFile(root: string, { path, content, append }: SaveArgs): ToolRun {
  try {
    const segments = sandboxSegments(path);
    mkdirSync(root, { recursive: true, mode: 0o700 });
    const dir = walkFolders(root, segments, true) ?? root;
    const file = join(dir, segments[segments.length - 1] ?? '');
    const existing = lstatOrNull(file);
    if (existing?.isSymbolicLink())
      throw new SandboxRefusal('the file is a symbolic link; links are not followed');
    const bytes = Buffer.from(content, 'utf8');
    const before = existing?.isFile() === true ? existing.size : 0;
    const after = append === true ? before + bytes.length : bytes.length;
    if (after > FILE_MAX_BYTES) throw new SandboxRefusal(`a file may hold at most ${FILE_MAX_BYTES} bytes`);
    const used = usage(root);
    if (existing === null && used.files >= SANDBOX_MAX_FILES)
      throw new SandboxRefusal(
        `the scratch folder holds ${SANDBOX_MAX_FILES} files already; delete some first`,
      );
    if (used.bytes - before + after > SANDBOX_MAX_BYTES)
      throw new SandboxRefusal(`the scratch folder may hold at most ${SANDBOX_MAX_BYTES / 1024 / 1024} MiB`);
    const flags =
      constants.O_WRONLY |
      constants.O_CREAT |
      NOFOLLOW |
      (append === true ? constants.O_APPEND : constants.O_TRUNC);
    const fd = openSync(file, flags, 0o600);
    try {
      if (!fstatSync(fd).isFile()) throw new SandboxRefusal('not a regular file');
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } finally {
      closeSync(fd);
    }
    const line = `${append === true ? 'appended' : 'saved'} ${bytes.length} bytes to ${segments.join('/')}`;
    return ok(line, line);
  } catch (error) {
    return refused(error);
  }
}

/** read_file: a slice of one file, fenced as data; what it returned counts as read. */
function readFile(root: string, { path, offset }: ReadArgs): ToolRun {
  try {
    const segments = sandboxSegments(path);
    const dir = walkFolders(root, segments, false);
    if (dir === null) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
    const fd = openSync(join(dir, segments[segments.length - 1] ?? ''), constants.O_RDONLY | NOFOLLOW);
    let text: string;
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw new SandboxRefusal('that is a folder, not a file');
      const buffer = Buffer.alloc(Math.min(stats.size, FILE_MAX_BYTES));
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, read);
        if (n === 0) break;
        read += n;
      }
      text = buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
    const start = offset ?? 0;
    const slice = text.slice(start, start + READ_CHARS);
    const end = start + slice.length;
    const more =
      end < text.length
        ? `\n[chars ${start}-${end} of ${text.length}; read_file with offset=${end} for more]`
        : '';
    return {
      ...ok(
        (slice === '' ? '(empty file)' : fenceUntrusted(slice, `file ${segments.join('/')}`)) + more,
        `read_file: ${slice.length} characters`,
      ),
      read: [slice],
    };
  } catch (error) {
    return refused(error);
  }
}

/** list_files: every file of the sandbox with its size, fenced as data. */
function listFiles(root: string): ToolRun {
  try {
    const lines: string[] = [];
    const walk = (dir: string, prefix: string, depth: number): void => {
      if (depth > MAX_DEPTH || lines.length >= 500) return;
      for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
        a.name.localeCompare(b.name),
      )) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`, depth + 1);
        else if (entry.isFile()) lines.push(`${prefix}${entry.name} (${lstatSync(path).size} bytes)`);
      }
    };
    if (lstatOrNull(root) !== null) walk(root, '', 0);
    const text = lines.length === 0 ? 'no files yet' : lines.join('\n');
    return ok(fenceUntrusted(text, 'list_files'), `list_files: ${lines.length} files`);
  } catch (error) {
    return refused(error);
  }
}

export function scratchFileTools(root: string) {
  const save: LocalTool<z.ZodType<SaveArgs>> = {
    name: 'save_file',
    description: 'Save text to a scratch file (relative path; replaces it unless append)',
    schema: z.strictObject({
      path: z.string().min(1).max(512),
      content: z.string().max(FILE_MAX_BYTES),
      append: z.boolean().optional(),
    }),
    run: (args) => saveFile(root, args),
  };

  const read: LocalTool<z.ZodType<ReadArgs>> = {
    name: 'read_file',
    description: 'Read a scratch file (50,000 characters at a time; continue with offset)',
    schema: z.strictObject({ path: z.string().min(1).max(512), offset: z.number().int().min(0).optional() }),
    run: (args) => readFile(root, args),
  };

  const list: LocalTool<z.ZodType<Record<string, never>>> = {
    name: 'list_files',
    description: 'List the scratch files with their sizes',
    schema: z.strictObject({}),
    run: () => listFiles(root),
  };
  return [save, read, list] as const;
}
