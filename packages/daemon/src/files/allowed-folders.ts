/**
 * The one door through which an agent names a file on this machine, for every action that reads or
 * writes one (upload, pdf, state save/load, network har and body files): a path is checked against the
 * folders the user allowed — the session's own folder, the folders in BPROXY_HOME/files.json, the ones
 * `service start --allow-files DIR` named — before anything is opened. The checks, in order: no NUL and
 * no `..` segment at all; the path as written inside an allowed folder; its real path (every symbolic
 * link followed; for a file to write, its folder's) inside an allowed folder too, so a link out is
 * refused. A file to read must be a regular file within the size cap; a file to write, when it exists,
 * a regular file (never a link), and it is written with O_NOFOLLOW, mode 0600 (writePrivateFile).
 * Every refusal is PATH_NOT_ALLOWED.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  openSync,
  realpathSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import type { ErrorCode } from '@bproxy/protocol';

/** Largest file an upload may hand a page unless configured otherwise (100 MiB). */
export const DEFAULT_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

export interface CheckedFile {
  /** The real path (links followed), inside an allowed folder. */
  readonly path: string;
  /** The name the page sees (the real file's name). */
  readonly name: string;
  readonly bytes: number;
  /** Its media type by extension, or '' when unknown (the accept check and the page's File.type). */
  readonly type: string;
}

export type FileCheck =
  | { readonly ok: true; readonly file: CheckedFile }
  | {
      readonly ok: false;
      readonly code: Extract<ErrorCode, 'PATH_NOT_ALLOWED' | 'FILE_NOT_FOUND'>;
      readonly message: string;
    };

export interface FileRules {
  /** Where relative paths are taken from: the session's own folder (BPROXY_HOME/state for state files). */
  readonly sessionFolder: string;
  /** Every allowed folder, the session's first. */
  readonly folders: readonly string[];
  /** The largest file checkFile accepts. */
  readonly maxBytes: number;
}

/** The rules of a session: its own folder, then the folders the user allowed (files.json, --allow-files). */
export function sessionRules(
  session: { readonly tmpDir: string },
  files: { readonly allowed: readonly string[]; readonly uploadMaxBytes: number },
): FileRules {
  return {
    sessionFolder: session.tmpDir,
    folders: [session.tmpDir, ...files.allowed],
    maxBytes: files.uploadMaxBytes,
  };
}

const TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
};

/** The media type of a file name by its extension, '' when unknown. */
export function typeOfName(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : (TYPES[name.slice(dot + 1).toLowerCase()] ?? '');
}

/** Whether `path` is `folder` itself or lies below it (both absolute and normalized). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

const refused = (message: string): FileCheck => ({ ok: false, code: 'PATH_NOT_ALLOWED', message });
const missing = (message: string): FileCheck => ({ ok: false, code: 'FILE_NOT_FOUND', message });

const ALLOWED = "the session's folder, files.json, --allow-files";

/**
 * The checks every path goes through before anything is looked at: no NUL, no `..` segment, and the
 * path as written inside an allowed folder. Answers the absolute path and the allowed folders (as
 * written and as they really are, so a home reached through a link counts as itself), or the refusal.
 */
function placeOf(
  raw: string,
  rules: FileRules,
): { ok: true; written: string; folders: string[] } | { ok: false; message: string } {
  const shown = JSON.stringify(raw.slice(0, 200));
  if (raw.includes('\0')) return { ok: false, message: `${shown}: a path may not hold a NUL character` };
  if (raw.split(/[\\/]/).includes('..'))
    return {
      ok: false,
      message: `${shown}: a path may not name ".."; give the path inside an allowed folder`,
    };
  const written = normalize(isAbsolute(raw) ? raw : join(rules.sessionFolder, raw));
  const folders = rules.folders.flatMap((folder) => {
    const real = realOrNull(folder);
    return real === null ? [] : [normalize(folder), real];
  });
  if (!folders.some((folder) => isInside(folder, written)))
    return { ok: false, message: `${shown} is outside the folders an agent's files may be in (${ALLOWED})` };
  return { ok: true, written, folders };
}

/** Checks a file to read (upload, state load); nothing outside the allowed folders is even looked at. */
export function checkFile(raw: string, rules: FileRules): FileCheck {
  const shown = JSON.stringify(raw.slice(0, 200));
  const place = placeOf(raw, rules);
  if (!place.ok) return refused(place.message);
  const { written, folders } = place;
  const real = realOrNull(written);
  if (real === null) {
    // Missing: say so only when nothing on the way leads out (no oracle for files behind a link out).
    const realFolder = realOrNull(dirname(written));
    if (isLink(written) || (realFolder !== null && !folders.some((folder) => isInside(folder, realFolder))))
      return refused(`${shown} is a symbolic link to a place outside the allowed folders`);
    return missing(`${shown}: no such file`);
  }
  if (!folders.some((folder) => isInside(folder, real)))
    return refused(`${shown} is a symbolic link to a place outside the allowed folders`);
  const stats = lstatSync(real);
  if (!stats.isFile()) return missing(`${shown} is not a regular file`);
  if (stats.size > rules.maxBytes)
    return missing(`${shown} is ${stats.size} bytes, over the cap of ${rules.maxBytes}`);
  const name = basename(real);
  return { ok: true, file: { path: real, name, bytes: stats.size, type: typeOfName(name) } };
}

/** Checks every path; the first refusal wins and nothing is handed on. */
export function checkFiles(
  raws: readonly string[],
  rules: FileRules,
): { ok: true; files: CheckedFile[] } | Extract<FileCheck, { ok: false }> {
  const files: CheckedFile[] = [];
  for (const raw of raws) {
    const checked = checkFile(raw, rules);
    if (!checked.ok) return checked;
    files.push(checked.file);
  }
  return { ok: true, files };
}

export type OutCheck =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly code: 'PATH_NOT_ALLOWED'; readonly message: string };

/**
 * Checks where the daemon may write a file an agent asked for (pdf --out, state save, network har):
 * no `..`; inside an allowed folder as written; its folder's real path inside one too (no link out on
 * the way); and, when the file exists, a regular file (never a link, which the write could follow).
 */
export function checkOutFile(raw: string, rules: FileRules): OutCheck {
  const shown = JSON.stringify(raw.slice(0, 200));
  const no = (message: string): OutCheck => ({ ok: false, code: 'PATH_NOT_ALLOWED', message });
  const place = placeOf(raw, rules);
  if (!place.ok) return no(place.message);
  const { written, folders } = place;
  const parent = realOrNull(dirname(written));
  if (parent === null) return no(`${shown}: its folder does not exist`);
  const path = join(parent, basename(written));
  if (!folders.some((folder) => isInside(folder, path) && path !== folder))
    return no(`${shown} lies behind a symbolic link to a place outside the allowed folders`);
  let existing: ReturnType<typeof lstatSync> | null = null;
  try {
    existing = lstatSync(path);
  } catch {
    existing = null;
  }
  if (existing !== null && !existing.isFile()) return no(`${shown} exists and is not a regular file`);
  return { ok: true, path };
}

/** Writes a path checkOutFile answered: mode 0600, never through a link (O_NOFOLLOW), a regular file only. */
export function writePrivateFile(path: string, data: string | Buffer): number {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    fchmodSync(fd, 0o600);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    return bytes.length;
  } finally {
    closeSync(fd);
  }
}
