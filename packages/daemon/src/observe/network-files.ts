/**
 * The files the network read writes: a response body too long to inline (in the session's folder,
 * `network/rN.body`) and a HAR export (a relative name in the session's folder, or an absolute path in a
 * folder the user allowed). Every path goes through the one rule of files/allowed-folders.ts before
 * anything is sent to the browser, and is written there with O_NOFOLLOW, mode 0600.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BODY_INLINE_CHARS, BPROXY_VERSION, type DriverResult, type NetworkRecord } from '@bproxy/protocol';
import type { DriverOutcome } from '../browsers/forwarded-requests';
import { failed } from '../actions/outcome';
import { checkOutFile, writePrivateFile, type FileRules } from '../files/allowed-folders';

/** The absolute path `file` names under the rules, or the refusal (PATH_NOT_ALLOWED). */
export function allowedPath(
  rules: FileRules,
  file: string,
): { ok: true; path: string } | { ok: false; outcome: DriverOutcome } {
  const checked = checkOutFile(file, rules);
  if (!checked.ok) return { ok: false, outcome: failed(checked.code, checked.message) };
  return { ok: true, path: checked.path };
}

/** network.get's answer: the body inline when it is short text, else in a file of the session's folder. */
export function bodyResult(rules: FileRules, data: DriverResult<'network.get'>): DriverOutcome {
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
      mkdirSync(join(rules.sessionFolder, 'network'), { recursive: true, mode: 0o700 });
      const where = allowedPath(rules, join('network', `${record.id}.body`));
      if (!where.ok) return where.outcome;
      writePrivateFile(where.path, body.encoding === 'base64' ? Buffer.from(body.data, 'base64') : body.data);
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
  const bytes = writePrivateFile(path, JSON.stringify(har, null, 1));
  return { ok: true, data: { file: path, entries: data.records.length, bytes } };
}
