/**
 * The files the network read writes: a response body too long to inline (in the session's folder) and
 * a HAR export (in the session's folder, or in a folder the user allowed in network.json). Every path
 * is checked before anything is sent to the browser: no `..`, no absolute path outside an allowed
 * folder, no link on the way (the parent's real path must be inside the folder's real path) and no
 * link as the file itself (O_NOFOLLOW). Files are 0600, their folders 0700.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { BODY_INLINE_CHARS, BPROXY_VERSION, type DriverResult, type NetworkRecord } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import type { NetworkSettings } from './network-settings';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The absolute path `file` names, or the refusal. Folders on the way are made (0700) inside the root. */
export function allowedPath(
  sessionFolder: string,
  settings: NetworkSettings,
  file: string,
): { ok: true; path: string } | { ok: false; outcome: DriverOutcome } {
  const refuse = (why: string) => ({
    ok: false as const,
    outcome: failed('PATH_NOT_ALLOWED', `${JSON.stringify(file.slice(0, 200))}: ${why}`),
  });
  if (file.includes('\0')) return refuse('the name holds a NUL');
  if (file.split(/[\\/]/).includes('..')) return refuse('`..` may not appear in the path');
  let root: string;
  let path: string;
  if (isAbsolute(file)) {
    const folder = settings.harFolders.find((f) => inside(resolve(f), resolve(file)));
    if (folder === undefined)
      return refuse(
        "an absolute path must be inside a folder the user allowed (harFolders in BPROXY_HOME/network.json); a plain name goes in the session's folder",
      );
    root = resolve(folder);
    path = resolve(file);
  } else {
    root = sessionFolder;
    path = resolve(sessionFolder, file);
    if (!inside(root, path)) return refuse("the path leaves the session's folder");
  }
  let realParent: string;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const realRoot = realpathSync(root);
    realParent = realpathSync(dirname(path));
    if (realParent !== realRoot && !inside(realRoot, realParent))
      return refuse('a link on the way leads out of the folder');
  } catch (error) {
    return refuse(`the folder cannot be made (${error instanceof Error ? error.message : String(error)})`);
  }
  return { ok: true, path: join(realParent, basename(path)) };
}

/** Writes `data` to `path` 0600, refusing a link or anything but a regular file there. */
export function writePrivate(path: string, data: string | Buffer): number {
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    fchmodSync(fd, 0o600);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    writeSync(fd, bytes);
    return bytes.length;
  } finally {
    closeSync(fd);
  }
}

/** network.get's answer: the body inline when it is short text, else in a file of the session's folder. */
export function bodyResult(sessionFolder: string, data: DriverResult<'network.get'>): DriverOutcome {
  const { record, body, postData, bodyMissing } = data;
  const out: Record<string, unknown> = { record };
  if (postData !== undefined)
    out.postData =
      postData.length > BODY_INLINE_CHARS ? `${postData.slice(0, BODY_INLINE_CHARS - 1)}…` : postData;
  if (bodyMissing !== undefined) out.bodyMissing = bodyMissing;
  if (body !== undefined) {
    out.bodyBytes = body.bytes;
    if (body.truncated) out.bodyTruncated = true;
    if (body.encoding === 'utf8' && body.data.length <= BODY_INLINE_CHARS && !body.truncated)
      out.body = body.data;
    else {
      const where = allowedPath(
        sessionFolder,
        { revealSecrets: false, harFolders: [] },
        join('network', `${record.id}.body`),
      );
      if (!where.ok) return where.outcome;
      writePrivate(where.path, body.encoding === 'base64' ? Buffer.from(body.data, 'base64') : body.data);
      out.bodyFile = where.path;
    }
  }
  return { ok: true, data: out };
}

function harEntry(r: NetworkRecord): Record<string, unknown> {
  let query: { name: string; value: string }[] = [];
  try {
    query = [...new URL(r.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // Not a URL: no query string.
  }
  const location = r.responseHeaders.find((h) => h.name.toLowerCase() === 'location')?.value ?? '';
  const ms = r.durationMs ?? 0;
  return {
    pageref: 'page_1',
    startedDateTime: new Date(r.startedAt).toISOString(),
    time: ms,
    request: {
      method: r.method,
      url: r.url,
      httpVersion: r.protocol ?? '',
      cookies: [],
      headers: r.requestHeaders,
      queryString: query,
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: r.status ?? 0,
      statusText: r.statusText ?? '',
      httpVersion: r.protocol ?? '',
      cookies: [],
      headers: r.responseHeaders,
      content: { size: r.size ?? 0, mimeType: r.mimeType ?? '' },
      redirectURL: location,
      headersSize: -1,
      bodySize: r.size ?? -1,
      ...(r.failed === undefined ? {} : { _error: r.failed }),
    },
    cache: {},
    timings: { send: 0, wait: ms, receive: 0 },
    _resourceType: r.type,
    ...(r.initiator === undefined ? {} : { _initiator: r.initiator }),
  };
}

/** Writes network.har's records as HAR 1.2 to the path allowedPath gave. */
export function writeHar(path: string, data: DriverResult<'network.har'>): DriverOutcome {
  const first = data.records[0];
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'bproxy', version: BPROXY_VERSION },
      pages: [
        {
          startedDateTime: new Date(first?.startedAt ?? Date.now()).toISOString(),
          id: 'page_1',
          title: data.title || data.url,
          pageTimings: {},
        },
      ],
      entries: data.records.map(harEntry),
    },
  };
  const bytes = writePrivate(path, JSON.stringify(har, null, 1));
  return { ok: true, data: { file: path, entries: data.records.length, bytes } };
}
