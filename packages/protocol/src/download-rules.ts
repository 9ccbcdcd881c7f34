/**
 * What a download may be, said once for the daemon and both drivers (zod-free): the size cap's default
 * and the types refused — programs and scripts a person could run by opening them, by the extension of
 * the name the page suggested.
 */

/** The largest download kept unless the daemon is configured otherwise (100 MiB). */
export const DEFAULT_DOWNLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** Refused download types, by extension: executables, installers and scripts. */
export const REFUSED_DOWNLOAD_EXTENSIONS: readonly string[] = [
  'exe',
  'msi',
  'msix',
  'com',
  'scr',
  'bat',
  'cmd',
  'ps1',
  'vbs',
  'vbe',
  'jse',
  'wsf',
  'hta',
  'cpl',
  'lnk',
  'reg',
  'dll',
  'sh',
  'command',
  'app',
  'dmg',
  'pkg',
  'deb',
  'rpm',
  'apk',
  'appimage',
  'jar',
];

/** Whether a download named `name` is of a refused type (its last extension, case-insensitive). */
export function isRefusedDownloadType(name: string): boolean {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return false;
  return REFUSED_DOWNLOAD_EXTENSIONS.includes(
    name
      .slice(dot + 1)
      .toLowerCase()
      .trim(),
  );
}

/**
 * The name a download is filed under: the last part of what the page suggested, with path separators,
 * control characters and leading dots gone, never `.` or `..`, at most 200 characters; `download` when
 * nothing is left.
 */
export function downloadFileName(suggested: string): string {
  const last = suggested.split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .replace(/[\u0000-\u001f\u007f:*?"<>|]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  const name = cleaned.slice(0, 200);
  return name === '' ? 'download' : name;
}

/**
 * The folder under the user's Downloads folder where the extension has Chrome write a session tab's
 * download (`bproxy-downloads/<guid>/<name>`) until the daemon moves it into the session's folder.
 */
export const EXTENSION_DOWNLOAD_FOLDER = 'bproxy-downloads';
