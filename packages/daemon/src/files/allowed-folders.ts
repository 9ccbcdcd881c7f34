/**
 * The one door through which an agent names a file on this machine: a path is checked against the
 * folders the user allowed — the session's own folder, the folders in BPROXY_HOME/files.json, the ones
 * `service start --allow-files DIR` named — before anything is opened. The checks, in order: no `..`
 * segment at all; the path as written inside an allowed folder; its real path (every symbolic link
 * followed) inside an allowed folder too, so a link out is refused; a regular file within the size cap.
 * Nothing is read here: the browser is handed the checked real path (same machine, same user).
 */
import { lstatSync, realpathSync } from 'node:fs';
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
      readonly code: Extract<ErrorCode, 'FILE_NOT_ALLOWED' | 'FILE_NOT_FOUND'>;
      readonly message: string;
    };

export interface FileRules {
  /** The session's own folder: relative paths are taken from here. */
  readonly sessionFolder: string;
  /** Every allowed folder, the session's first. */
  readonly folders: readonly string[];
  readonly maxBytes: number;
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

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

const refused = (message: string): FileCheck => ({ ok: false, code: 'FILE_NOT_ALLOWED', message });
const missing = (message: string): FileCheck => ({ ok: false, code: 'FILE_NOT_FOUND', message });

/** Checks one path an agent gave; nothing outside the allowed folders is even looked at. */
export function checkFile(raw: string, rules: FileRules): FileCheck {
  const shown = JSON.stringify(raw.slice(0, 200));
  if (raw.includes('\0')) return refused(`${shown}: a path may not hold a NUL character`);
  if (raw.split(/[\\/]/).includes('..'))
    return refused(`${shown}: a path may not name ".."; give the file's path inside an allowed folder`);
  const written = normalize(isAbsolute(raw) ? raw : join(rules.sessionFolder, raw));
  // The folders as written and as they really are (a home reached through a link counts as itself).
  const folders = rules.folders.flatMap((folder) => {
    const real = realOrNull(folder);
    return real === null ? [] : [normalize(folder), real];
  });
  if (!folders.some((folder) => isInside(folder, written)))
    return refused(
      `${shown} is outside the folders files may be read from (the session's folder, files.json, --allow-files)`,
    );
  const real = realOrNull(written);
  if (real === null) return missing(`${shown}: no such file`);
  if (!folders.some((folder) => isInside(folder, real)))
    return refused(`${shown} is a symbolic link to a place outside the allowed folders`);
  const stats = lstatSync(real);
  if (!stats.isFile()) return missing(`${shown} is not a regular file`);
  if (stats.size > rules.maxBytes)
    return missing(`${shown} is ${stats.size} bytes, over the upload cap of ${rules.maxBytes}`);
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
  | { readonly ok: false; readonly code: 'FILE_NOT_ALLOWED'; readonly message: string };

/**
 * Checks where the daemon may write a file an agent asked for (pdf --out): no `..`; inside an allowed
 * folder as written; its folder's real path inside one too (no link out on the way); and, when the file
 * exists, a regular file (never a link, which the write could follow elsewhere).
 */
export function checkOutFile(raw: string, rules: FileRules): OutCheck {
  const shown = JSON.stringify(raw.slice(0, 200));
  const no = (message: string): OutCheck => ({ ok: false, code: 'FILE_NOT_ALLOWED', message });
  if (raw.includes('\0')) return no(`${shown}: a path may not hold a NUL character`);
  if (raw.split(/[\\/]/).includes('..')) return no(`${shown}: a path may not name ".."`);
  const written = normalize(isAbsolute(raw) ? raw : join(rules.sessionFolder, raw));
  const folders = rules.folders.flatMap((folder) => {
    const real = realOrNull(folder);
    return real === null ? [] : [normalize(folder), real];
  });
  if (!folders.some((folder) => isInside(folder, written)))
    return no(
      `${shown} is outside the folders files may be written to (the session's folder, files.json, --allow-files)`,
    );
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
