/**
 * What one driven tab logged and fetched, from the debugger's own events (Runtime.consoleAPICalled,
 * Runtime.exceptionThrown, Log.entryAdded, Network.*): the same CDP events reach the CDP driver over its
 * session and the extension through chrome.debugger, so both feed this one class. Bounded: each list
 * keeps at most its count and its bytes, the oldest entries going first (counted in `dropped`). Raw
 * header values stay in this memory only; every read redacts them (redact.ts).
 */
import type { ConsoleLevel } from '@bproxy/protocol';
import type { Header } from './redact';

export interface Bounds {
  readonly entries: number;
  readonly bytes: number;
}

export const CONSOLE_BOUNDS: Bounds = { entries: 1000, bytes: 256 * 1024 };
export const NETWORK_BOUNDS: Bounds = { entries: 1000, bytes: 1024 * 1024 };

const MAX_TEXT = 2000;
const MAX_URL = 8192;
/** Header bytes kept per request (names and values); later headers are dropped. */
const MAX_HEADER_BYTES = 32 * 1024;
const MAX_HEADER_VALUE = 8192;
const MAX_POST_DATA = 64 * 1024;

export interface ConsoleEntry {
  readonly seq: number;
  readonly level: ConsoleLevel;
  readonly text: string;
  /** Where it was logged or thrown: url:line:column. */
  readonly source?: string;
  /** The browser's own line about a failed request (the request itself is in the network list). */
  readonly network?: true;
  readonly at: number;
  readonly bytes: number;
}

export interface NetworkEntry {
  readonly seq: number;
  /** Its number in this tab (`r<n>`). */
  readonly n: number;
  readonly cdpId: string;
  method: string;
  url: string;
  type: string;
  status?: number;
  statusText?: string;
  failed?: string;
  mimeType?: string;
  protocol?: string;
  size?: number;
  /** Epoch milliseconds. */
  startedAt: number;
  /** The browser's monotonic seconds at the start and the end. */
  startTs: number;
  endTs?: number;
  initiator?: string;
  requestHeaders: Header[];
  responseHeaders: Header[];
  postData?: string;
  hasPostData: boolean;
  finished: boolean;
  bytes: number;
}

type Raw = Record<string, unknown>;

const obj = (v: unknown): Raw => (v !== null && typeof v === 'object' ? (v as Raw) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const cut = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

function levelOf(type: string | undefined): ConsoleLevel {
  switch (type) {
    case 'error':
    case 'assert':
      return 'error';
    case 'warning':
    case 'warn':
      return 'warning';
    case 'info':
      return 'info';
    case 'debug':
    case 'verbose':
      return 'debug';
    default:
      return 'log';
  }
}

/** A console argument as text: a string as it is, any other value by its description. */
function argText(arg: unknown): string {
  const a = obj(arg);
  if (typeof a.value === 'string') return a.value;
  if (a.value !== undefined && a.value !== null && typeof a.value !== 'object') return String(a.value);
  if (a.value === null && a.subtype === 'null') return 'null';
  return str(a.unserializableValue) ?? str(a.description) ?? str(a.type) ?? '';
}

function location(url: unknown, line: unknown, column: unknown): string | undefined {
  const u = str(url);
  if (u === undefined || u === '') return undefined;
  const l = num(line);
  const c = num(column);
  // CDP counts lines and columns from 0; people count from 1.
  return cut(
    `${u}${l === undefined ? '' : `:${l + 1}`}${l === undefined || c === undefined ? '' : `:${c + 1}`}`,
    600,
  );
}

function topFrame(stackTrace: unknown): string | undefined {
  const frames = obj(stackTrace).callFrames;
  if (!Array.isArray(frames)) return undefined;
  for (const frame of frames) {
    const f = obj(frame);
    const at = location(f.url, f.lineNumber, f.columnNumber);
    if (at !== undefined) return at;
  }
  return undefined;
}

function initiatorOf(raw: unknown): string | undefined {
  const i = obj(raw);
  const type = str(i.type);
  const at = topFrame(i.stack) ?? location(i.url, i.lineNumber, i.columnNumber);
  if (at !== undefined) return at;
  return type === 'other' ? undefined : type;
}

function headersOf(raw: unknown): Header[] {
  const out: Header[] = [];
  let bytes = 0;
  for (const [name, value] of Object.entries(obj(raw))) {
    if (typeof value !== 'string') continue;
    // One header line per value (Set-Cookie comes joined by newlines).
    for (const part of value.split('\n')) {
      const v = cut(part, MAX_HEADER_VALUE);
      bytes += name.length + v.length;
      if (bytes > MAX_HEADER_BYTES || out.length >= 200) return out;
      out.push({ name: cut(name, 1000), value: v });
    }
  }
  return out;
}

const headerBytes = (headers: readonly Header[]): number =>
  headers.reduce((sum, h) => sum + h.name.length + h.value.length, 0);

function entryBytes(e: NetworkEntry): number {
  return (
    200 +
    e.url.length +
    (e.initiator?.length ?? 0) +
    (e.failed?.length ?? 0) +
    (e.postData?.length ?? 0) +
    headerBytes(e.requestHeaders) +
    headerBytes(e.responseHeaders)
  );
}

/** A bounded FIFO list whose entries each know their bytes. */
class Bounded<T extends { bytes: number }> {
  readonly items: T[] = [];
  bytes = 0;
  dropped = 0;

  constructor(
    private readonly bounds: Bounds,
    private readonly onDrop: (item: T) => void = () => undefined,
  ) {}

  push(item: T): void {
    this.items.push(item);
    this.bytes += item.bytes;
    this.trim();
  }

  /** An item's bytes changed (`delta`): the list drops its oldest to stay bounded. */
  grew(delta: number): void {
    this.bytes += delta;
    this.trim();
  }

  private trim(): void {
    while (
      this.items.length > 0 &&
      (this.items.length > this.bounds.entries || this.bytes > this.bounds.bytes)
    ) {
      const first = this.items.shift();
      if (first === undefined) break;
      this.bytes -= first.bytes;
      this.dropped++;
      this.onDrop(first);
    }
  }
}

export class TabLog {
  /** The sequence number of the latest entry (console or network). */
  seq = 0;
  /** The sequence number when the tab's latest action started (see `sinceAction`). */
  actionMark = 0;
  readonly console: Bounded<ConsoleEntry>;
  readonly network: Bounded<NetworkEntry>;
  private readonly byCdpId = new Map<string, NetworkEntry>();
  private readonly byNumber = new Map<number, NetworkEntry>();
  /** Extra-info headers that came before their request. */
  private readonly earlyRequestHeaders = new Map<string, Header[]>();
  private readonly earlyResponseHeaders = new Map<string, Header[]>();
  private requests = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    consoleBounds: Bounds = CONSOLE_BOUNDS,
    networkBounds: Bounds = NETWORK_BOUNDS,
    private readonly now: () => number = Date.now,
  ) {
    this.console = new Bounded(consoleBounds);
    this.network = new Bounded(networkBounds, (e) => {
      this.byCdpId.delete(e.cdpId);
      this.byNumber.delete(e.n);
    });
  }

  /** Called after every change (the waits and the action news listen). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  request(n: number): NetworkEntry | undefined {
    return this.byNumber.get(n);
  }

  /** Feeds one debugger event; events of other domains are ignored. */
  feed(method: string, params: unknown): void {
    const p = obj(params);
    switch (method) {
      case 'Runtime.consoleAPICalled': {
        const args = Array.isArray(p.args) ? p.args : [];
        const text = args.map(argText).join(' ');
        this.addConsole(levelOf(str(p.type)), text, topFrame(p.stackTrace));
        break;
      }
      case 'Runtime.exceptionThrown': {
        const d = obj(p.exceptionDetails);
        const described = str(obj(d.exception).description);
        const first = described?.split('\n')[0];
        const text = first === undefined ? (str(d.text) ?? 'Uncaught') : `Uncaught ${first}`;
        this.addConsole(
          'error',
          text,
          topFrame(d.stackTrace) ?? location(d.url, d.lineNumber, d.columnNumber),
        );
        break;
      }
      case 'Log.entryAdded': {
        const e = obj(p.entry);
        const at = location(e.url, e.lineNumber, undefined);
        this.addConsole(levelOf(str(e.level)), str(e.text) ?? '', at, e.source === 'network');
        break;
      }
      case 'Network.requestWillBeSent':
        this.requestWillBeSent(p);
        break;
      case 'Network.requestWillBeSentExtraInfo': {
        const id = str(p.requestId);
        if (id === undefined) break;
        const headers = headersOf(p.headers);
        const entry = this.byCdpId.get(id);
        if (entry === undefined || entry.finished) this.earlyRequestHeaders.set(id, headers);
        else this.update(entry, () => (entry.requestHeaders = headers));
        this.keepEarlyBounded();
        break;
      }
      case 'Network.responseReceived': {
        const entry = this.entry(p);
        if (entry === undefined) break;
        const r = obj(p.response);
        this.update(entry, () => {
          this.applyResponse(entry, r);
          const type = str(p.type);
          if (type !== undefined) entry.type = type.toLowerCase();
        });
        break;
      }
      case 'Network.responseReceivedExtraInfo': {
        const id = str(p.requestId);
        if (id === undefined) break;
        const headers = headersOf(p.headers);
        const entry = this.byCdpId.get(id);
        if (entry === undefined) this.earlyResponseHeaders.set(id, headers);
        else this.update(entry, () => (entry.responseHeaders = headers));
        this.keepEarlyBounded();
        break;
      }
      case 'Network.loadingFinished': {
        const entry = this.entry(p);
        if (entry === undefined) break;
        this.update(entry, () => {
          entry.finished = true;
          entry.endTs = num(p.timestamp) ?? entry.endTs;
          entry.size = num(p.encodedDataLength) ?? entry.size;
        });
        break;
      }
      case 'Network.loadingFailed': {
        const entry = this.entry(p);
        if (entry === undefined) break;
        this.update(entry, () => {
          entry.finished = true;
          entry.endTs = num(p.timestamp) ?? entry.endTs;
          const cors = str(obj(p.corsErrorStatus).corsError);
          const blocked = str(p.blockedReason);
          const reasons = [
            str(p.errorText),
            p.canceled === true ? 'canceled' : undefined,
            blocked === undefined ? undefined : `blocked: ${blocked}`,
            cors === undefined ? undefined : `CORS: ${cors}`,
          ].filter((r): r is string => r !== undefined && r !== '');
          entry.failed = cut(reasons.join(', ') || 'failed', 500);
        });
        break;
      }
      default:
        return;
    }
    this.changed();
  }

  private entry(p: Raw): NetworkEntry | undefined {
    const id = str(p.requestId);
    return id === undefined ? undefined : this.byCdpId.get(id);
  }

  private requestWillBeSent(p: Raw): void {
    const id = str(p.requestId);
    if (id === undefined) return;
    const previous = this.byCdpId.get(id);
    // A redirect reuses the request id: the hop that was redirected ends with its response.
    if (previous !== undefined && p.redirectResponse !== undefined) {
      this.update(previous, () => {
        this.applyResponse(previous, obj(p.redirectResponse));
        previous.finished = true;
        previous.endTs = num(p.timestamp) ?? previous.endTs;
      });
      this.byCdpId.delete(id);
    }
    const r = obj(p.request);
    const wall = num(p.wallTime);
    const entry: NetworkEntry = {
      seq: ++this.seq,
      n: ++this.requests,
      cdpId: id,
      method: cut(str(r.method) ?? 'GET', 32),
      url: cut(`${str(r.url) ?? ''}${str(r.urlFragment) ?? ''}`, MAX_URL),
      type: (str(p.type) ?? 'other').toLowerCase(),
      startedAt: wall === undefined ? this.now() : Math.round(wall * 1000),
      startTs: num(p.timestamp) ?? 0,
      requestHeaders: this.earlyRequestHeaders.get(id) ?? headersOf(r.headers),
      responseHeaders: [],
      hasPostData: r.hasPostData === true || typeof r.postData === 'string',
      finished: false,
      bytes: 0,
    };
    this.earlyRequestHeaders.delete(id);
    const initiator = initiatorOf(p.initiator);
    if (initiator !== undefined) entry.initiator = cut(initiator, 2000);
    const post = str(r.postData);
    if (post !== undefined) entry.postData = cut(post, MAX_POST_DATA);
    entry.bytes = entryBytes(entry);
    this.byCdpId.set(id, entry);
    this.byNumber.set(entry.n, entry);
    this.network.push(entry);
  }

  private applyResponse(entry: NetworkEntry, r: Raw): void {
    const status = num(r.status);
    if (status !== undefined) entry.status = Math.round(status);
    const statusText = str(r.statusText);
    if (statusText !== undefined && statusText !== '') entry.statusText = cut(statusText, 200);
    const mime = str(r.mimeType);
    if (mime !== undefined && mime !== '') entry.mimeType = cut(mime, 200);
    const protocol = str(r.protocol);
    if (protocol !== undefined && protocol !== '') entry.protocol = cut(protocol, 32);
    const early = this.earlyResponseHeaders.get(entry.cdpId);
    this.earlyResponseHeaders.delete(entry.cdpId);
    // The extra-info headers are the ones on the wire (with Set-Cookie); prefer them.
    if (early !== undefined) entry.responseHeaders = early;
    else if (entry.responseHeaders.length === 0) entry.responseHeaders = headersOf(r.headers);
  }

  private update(entry: NetworkEntry, change: () => void): void {
    change();
    const before = entry.bytes;
    entry.bytes = entryBytes(entry);
    // Only an entry still in the list counts towards its bytes.
    if (this.byNumber.get(entry.n) === entry) this.network.grew(entry.bytes - before);
  }

  private keepEarlyBounded(): void {
    for (const map of [this.earlyRequestHeaders, this.earlyResponseHeaders]) {
      while (map.size > 200) {
        const oldest = map.keys().next().value;
        if (oldest === undefined) break;
        map.delete(oldest);
      }
    }
  }

  private addConsole(level: ConsoleLevel, text: string, source: string | undefined, network = false): void {
    const t = cut(text.replace(/\s*\n\s*/g, ' ⏎ '), MAX_TEXT);
    const entry: ConsoleEntry = {
      seq: ++this.seq,
      level,
      text: t,
      ...(source === undefined ? {} : { source }),
      ...(network ? { network: true as const } : {}),
      at: this.now(),
      bytes: 64 + t.length + (source?.length ?? 0),
    };
    this.console.push(entry);
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
