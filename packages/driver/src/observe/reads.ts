/**
 * The reads over a tab's log, the same in both drivers: console and network as compact lines (filtered,
 * capped at maxChars, continued from an entry offset), network.get's record (headers redacted) and
 * body, network.har's records, and the one-line news of what an action caused.
 */
import {
  BODY_MAX_BYTES,
  CONSOLE_LEVELS,
  type ConsoleLevel,
  type DriverResult,
  type ForwardedParams,
  type NetworkRecord,
} from '@bproxy/protocol';
import { fail } from '../failure';
import { redactHeaders } from './redact';
import type { ConsoleEntry, NetworkEntry, TabLog } from './tab-log';

/** Sends one CDP command to the tab (the CDP session, or chrome.debugger). */
export type TabCommand = (method: string, params: Record<string, unknown>) => Promise<unknown>;

const DEFAULT_MAX_CHARS = 4000;

const severity = (level: ConsoleLevel): number => CONSOLE_LEVELS.indexOf(level);

export function consoleLine(e: ConsoleEntry): string {
  return `[${e.level}] ${e.text}${e.source === undefined ? '' : ` (${e.source})`}`;
}

function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)}MB`;
}

function statusOf(e: NetworkEntry): string {
  if (e.failed !== undefined) return 'failed';
  if (e.status !== undefined) return String(e.status);
  return e.finished ? '-' : 'pending';
}

function durationMs(e: NetworkEntry): number | undefined {
  if (e.endTs === undefined || e.startTs === 0) return undefined;
  return Math.max(0, Math.round((e.endTs - e.startTs) * 1000));
}

/** A script location shortened to its file name and line, for the compact line. */
function shortInitiator(initiator: string | undefined): string | undefined {
  if (initiator === undefined) return undefined;
  const m = /([^/?#]*)(?:[?#][^:]*)?(:\d+)(?::\d+)?$/.exec(initiator);
  return m === null ? initiator : `${m[1] === '' ? '(page)' : m[1]}${m[2] ?? ''}`;
}

export function networkLine(e: NetworkEntry): string {
  const ms = durationMs(e);
  const parts = [
    `r${e.n}`,
    e.method,
    statusOf(e),
    e.type,
    e.url.length > 300 ? `${e.url.slice(0, 299)}…` : e.url,
    size(e.size),
    ms === undefined ? '' : `${ms}ms`,
  ].filter((p) => p !== '');
  const init = shortInitiator(e.initiator);
  return `${parts.join(' ')}${e.failed === undefined ? '' : ` (${e.failed})`}${init === undefined ? '' : ` ← ${init}`}`;
}

function statusMatches(e: NetworkEntry, filter: string): boolean {
  if (filter === 'failed') return e.failed !== undefined;
  if (e.status === undefined || e.failed !== undefined) return false;
  if (/^[1-5]xx$/.test(filter)) return Math.floor(e.status / 100) === Number(filter[0]);
  return e.status === Number(filter);
}

interface ListParams {
  contains?: string | undefined;
  offset?: number | undefined;
  maxChars?: number | undefined;
  sinceAction?: boolean | undefined;
}

function list<T extends { seq: number }>(
  items: readonly T[],
  dropped: number,
  line: (item: T) => string,
  params: ListParams,
  url: string,
): DriverResult<'console'> {
  const max = params.maxChars ?? DEFAULT_MAX_CHARS;
  const contains = params.contains?.toLowerCase();
  const since = params.sinceAction === true;
  const matching: string[] = [];
  for (const item of items) {
    const text = line(item);
    if (contains !== undefined && !text.toLowerCase().includes(contains)) continue;
    matching.push(text);
  }
  const offset = params.offset ?? 0;
  const shown: string[] = [];
  let chars = 0;
  for (let i = offset; i < matching.length; i++) {
    const text = matching[i] ?? '';
    if (shown.length > 0 && chars + text.length + 1 > max) break;
    shown.push(text.length > max ? `${text.slice(0, max - 1)}…` : text);
    chars += text.length + 1;
  }
  const next = offset + shown.length;
  return {
    url,
    text: shown.join('\n'),
    total: matching.length,
    shown: shown.length,
    ...(next < matching.length ? { nextOffset: next } : {}),
    ...(dropped > 0 && !since ? { dropped } : {}),
  };
}

export function readConsole(
  log: TabLog,
  params: ForwardedParams<'console'>,
  url: string,
): DriverResult<'console'> {
  const level = params.level;
  const mark = params.sinceAction === true ? log.actionMark : 0;
  const items = log.console.items.filter(
    (e) => e.seq > mark && (level === undefined || severity(e.level) <= severity(level)),
  );
  return list(items, log.console.dropped, consoleLine, params, url);
}

export function readNetwork(
  log: TabLog,
  params: ForwardedParams<'network'>,
  url: string,
): DriverResult<'network'> {
  const mark = params.sinceAction === true ? log.actionMark : 0;
  const { status, type } = params;
  const items = log.network.items.filter(
    (e) =>
      e.seq > mark &&
      (status === undefined || statusMatches(e, status)) &&
      (type === undefined || e.type === type),
  );
  return list(items, log.network.dropped, networkLine, params, url);
}

/** The record of one request, its headers redacted unless `reveal`. */
export function recordOf(e: NetworkEntry, reveal: boolean): NetworkRecord {
  const req = redactHeaders(e.requestHeaders, reveal);
  const res = redactHeaders(e.responseHeaders, reveal);
  const redacted = [...new Set([...req.redacted, ...res.redacted])];
  const ms = durationMs(e);
  return {
    id: `r${e.n}`,
    method: e.method,
    url: e.url,
    type: e.type,
    ...(e.status === undefined ? {} : { status: e.status }),
    ...(e.statusText === undefined ? {} : { statusText: e.statusText }),
    ...(e.failed === undefined ? {} : { failed: e.failed }),
    ...(e.mimeType === undefined ? {} : { mimeType: e.mimeType }),
    ...(e.protocol === undefined ? {} : { protocol: e.protocol }),
    ...(e.size === undefined ? {} : { size: e.size }),
    startedAt: e.startedAt,
    ...(ms === undefined ? {} : { durationMs: ms }),
    ...(e.initiator === undefined ? {} : { initiator: e.initiator }),
    requestHeaders: req.headers,
    responseHeaders: res.headers,
    ...(redacted.length > 0 ? { redacted } : {}),
  };
}

function entryOf(log: TabLog, id: string): NetworkEntry {
  const entry = log.request(Number(id.slice(1)));
  if (entry === undefined)
    fail(
      'REQUEST_NOT_FOUND',
      `no request ${id} in this tab (see \`network\`; the oldest are let go past the bound)`,
    );
  return entry;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function networkGet(
  log: TabLog,
  params: ForwardedParams<'network.get'>,
  send: TabCommand,
): Promise<DriverResult<'network.get'>> {
  const entry = entryOf(log, params.request);
  const result: DriverResult<'network.get'> = { record: recordOf(entry, params.revealSecrets === true) };
  if (params.body !== true) return result;
  if (entry.postData !== undefined) result.postData = entry.postData;
  else if (entry.hasPostData) {
    try {
      const got = (await send('Network.getRequestPostData', { requestId: entry.cdpId })) as {
        postData?: unknown;
      };
      if (typeof got.postData === 'string') result.postData = got.postData.slice(0, BODY_MAX_BYTES);
    } catch {
      // The browser no longer holds it: the record still answers.
    }
  }
  if (entry.failed !== undefined) return { ...result, bodyMissing: 'the request failed: there is no body' };
  if (!entry.finished) return { ...result, bodyMissing: 'the response is still loading' };
  try {
    const got = (await send('Network.getResponseBody', { requestId: entry.cdpId })) as {
      body?: unknown;
      base64Encoded?: unknown;
    };
    const raw = typeof got.body === 'string' ? got.body : '';
    const base64 = got.base64Encoded === true;
    const bytes = base64
      ? Math.floor((raw.length * 3) / 4) - (raw.endsWith('==') ? 2 : raw.endsWith('=') ? 1 : 0)
      : new TextEncoder().encode(raw).length;
    const limit = base64 ? Math.floor(BODY_MAX_BYTES / 3) * 4 : BODY_MAX_BYTES;
    const truncated = raw.length > limit;
    result.body = {
      encoding: base64 ? 'base64' : 'utf8',
      data: truncated ? raw.slice(0, limit) : raw,
      bytes,
      truncated,
    };
  } catch (error) {
    result.bodyMissing = `the browser no longer holds this body (${messageOf(error).slice(0, 200)})`;
  }
  return result;
}

export function networkHar(log: TabLog, reveal: boolean): NetworkRecord[] {
  return log.network.items.map((e) => recordOf(e, reveal));
}

/** A request the news names: its method, its path (or host and path off the page's origin), its status. */
function newsRequest(e: NetworkEntry): string {
  let where = e.url;
  try {
    const u = new URL(e.url);
    where = `${u.pathname}${u.search}`;
  } catch {
    // Not a URL: shown as it is.
  }
  if (where.length > 60) where = `${where.slice(0, 59)}…`;
  return `${e.method} ${where} ${e.failed === undefined ? String(e.status ?? '') : 'failed'}`.trim();
}

const isFailed = (e: NetworkEntry): boolean =>
  e.failed !== undefined ? !e.failed.includes('canceled') : e.status !== undefined && e.status >= 400;

/** One short line: the console errors and failed requests since `mark`; undefined when none. */
export function newsSince(log: TabLog, mark: number): string | undefined {
  // The browser's own line about a failed request is not counted: the request is named.
  const errors = log.console.items.filter(
    (e) => e.seq > mark && e.level === 'error' && e.network !== true,
  ).length;
  const failed = log.network.items.filter((e) => e.seq > mark && e.finished && isFailed(e));
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} console error${errors === 1 ? '' : 's'}`);
  for (const e of failed.slice(0, 3)) parts.push(newsRequest(e));
  if (failed.length > 3) parts.push(`${failed.length - 3} more failed requests`);
  return parts.length === 0 ? undefined : parts.join(', ');
}

/** Requests started since `mark` and not finished yet. */
export function inFlightSince(log: TabLog, mark: number): boolean {
  return log.network.items.some((e) => e.seq > mark && !e.finished);
}

/** The first console error since the tab's latest action, as its line. */
export function firstErrorSinceAction(log: TabLog): string | undefined {
  const e = log.console.items.find((c) => c.seq > log.actionMark && c.level === 'error');
  return e === undefined ? undefined : consoleLine(e);
}
