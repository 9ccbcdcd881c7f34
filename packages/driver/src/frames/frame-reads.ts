/**
 * Reads that include cross-origin frames. The page script answers the frames it could not enter as
 * slots (`frameSlots`); the driver runs the same read in each such frame and puts what it found in
 * place: a snapshot's frame line gets the frame's origin and its outline below it, `elements` and
 * `links` gain the frame's items (each with `frame`: its origin), `text` ends with each frame's text.
 * Refs of a frame's elements carry the path to them (frame-refs.ts). A frame that cannot be read is
 * named in `crossOriginFrames` with the reason, and on its snapshot line; never silently missing.
 */
import {
  HANDLES_PER_READ,
  SNAPSHOT_FRAME_CLOSE,
  SNAPSHOT_FRAME_OPEN,
  SNAPSHOT_REF_CLOSE,
  SNAPSHOT_REF_OPEN,
} from '@bproxy/protocol';
import type { FrameSlot } from '@bproxy/page';
import { DriverFailure, messageOf } from '../failure';
import type { FramePages } from './frame-pages';
import type { ElementTarget } from '@bproxy/protocol';
import { MAX_FRAME_DEPTH, frameTarget, isFrameKey, qualifyRef, type FrameHop } from './frame-refs';

export type FrameRead = 'snapshot' | 'elements' | 'links' | 'text';

/** Frames read per read at most (each costs a round trip); the rest are named as not read. */
export const MAX_FRAMES_PER_READ = 12;
/** The page script's default `limit` of elements and links. */
const DEFAULT_LIMIT = HANDLES_PER_READ;

type Data = Record<string, unknown>;
type Unread = { src: string; reason: string };

const FRAME_MARK = new RegExp(`${SNAPSHOT_FRAME_OPEN}(\\d+)${SNAPSHOT_FRAME_CLOSE}`, 'g');
const REF_MARK = new RegExp(`${SNAPSHOT_REF_OPEN}(\\d+)${SNAPSHOT_REF_CLOSE}`, 'g');

/** The slots a page answered, checked (the page is a trust boundary). */
function slotsOf(data: Data): FrameSlot[] {
  const raw = data.frameSlots;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (s): s is FrameSlot =>
      typeof s === 'object' &&
      s !== null &&
      Number.isInteger((s as FrameSlot).slot) &&
      typeof (s as FrameSlot).ref === 'string' &&
      /^r\d{1,9}$/.test((s as FrameSlot).ref) &&
      typeof (s as FrameSlot).src === 'string',
  );
}

function originOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url.slice(0, 200) : origin;
  } catch {
    return url.slice(0, 200);
  }
}

/** Params for the same read inside a frame: the whole frame, first part. */
function frameParams(params: Data): Data {
  const { target: _target, offset: _offset, ...rest } = params;
  return rest;
}

interface FrameResult {
  slot: FrameSlot;
  hop?: FrameHop;
  origin?: string;
  data?: Data;
  reason?: string;
}

function unreadReason(error: unknown): string {
  if (error instanceof DriverFailure) {
    if (error.error.code === 'PAGE_NOT_SCRIPTABLE') return `refused: ${error.error.message}`.slice(0, 300);
    return `${error.error.code}: ${error.error.message}`.slice(0, 300);
  }
  return messageOf(error).slice(0, 300);
}

/**
 * `action` run in `frame` (null: the top document) with the frames it holds filled in, down to
 * MAX_FRAME_DEPTH. `first` is the top document's answer when the caller already has it.
 */
export async function readWithFrames(
  pages: FramePages,
  action: FrameRead,
  params: Data,
  frame: string | null = null,
  depth = 0,
  first?: Data,
): Promise<Data> {
  const data = first ?? ((await pages.run(frame, action, params)) as Data);
  const { frameSlots: _slots, ...answer } = data;
  let slots = slotsOf(data);
  if (slots.length === 0) return answer;
  if (action === 'snapshot') {
    const shown = new Set([...String(answer.snapshot ?? '').matchAll(FRAME_MARK)].map((m) => Number(m[1])));
    slots = slots.filter((s) => shown.has(s.slot));
  }
  const results: FrameResult[] = [];
  for (const [i, slot] of slots.entries()) {
    if (depth >= MAX_FRAME_DEPTH) {
      results.push({ slot, reason: 'nested too deep' });
      continue;
    }
    if (i >= MAX_FRAMES_PER_READ) {
      results.push({ slot, reason: `more than ${MAX_FRAMES_PER_READ} frames in one read` });
      continue;
    }
    results.push(await readFrame(pages, action, params, frame, slot, depth));
  }
  return merge(action, answer, results, params);
}

async function readFrame(
  pages: FramePages,
  action: FrameRead,
  params: Data,
  parent: string | null,
  slot: FrameSlot,
  depth: number,
): Promise<FrameResult> {
  let key: string;
  try {
    const found = await pages.frameOf(parent, slot);
    if ('reason' in found) return { slot, reason: found.reason };
    if (!isFrameKey(found.key)) return { slot, reason: 'the browser named the frame oddly' };
    key = found.key;
  } catch (error) {
    return { slot, reason: unreadReason(error) };
  }
  try {
    // What the frame shows is checked before anything is read in it, and what was read after.
    const before = webPage(urlOf(await pages.run(key, 'pageInfo', {})));
    if (before !== null) return { slot, reason: before };
    const data = await readWithFrames(pages, action, frameParams(params), key, depth + 1);
    const after = webPage(urlOf(data));
    if (after !== null) return { slot, reason: after };
    return { slot, hop: { owner: slot.ref, frame: key }, origin: originOf(data.url), data };
  } catch (error) {
    return { slot, reason: unreadReason(error) };
  }
}

function urlOf(data: unknown): string {
  const url = (data as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? url : '';
}

/**
 * Why a frame is not read, or null for a web page (http, https, or about:blank and about:srcdoc, which
 * hold their parent's content). Another extension's frame (a password manager's inline menu), an error
 * page or a browser page is never read: it is not the page's content, and may hold the user's secrets.
 */
export function webPage(url: string): string | null {
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    return 'the frame has no address';
  }
  if (scheme === 'http:' || scheme === 'https:') return null;
  if (url === 'about:blank' || url === 'about:srcdoc') return null;
  if (scheme === 'chrome-error:') return 'the frame did not load (refused or unreachable)';
  return `not a web page (${scheme})`;
}

function unreadList(answer: Data, results: FrameResult[]): Unread[] {
  const list: Unread[] = [];
  const before = answer.crossOriginFrames;
  if (Array.isArray(before)) list.push(...(before as Unread[]));
  for (const r of results) {
    if (r.reason !== undefined) list.push({ src: r.slot.src, reason: r.reason });
    const nested = r.data?.crossOriginFrames;
    if (Array.isArray(nested)) list.push(...(nested as Unread[]));
  }
  return list;
}

function withUnread(answer: Data, results: FrameResult[]): Data {
  const { crossOriginFrames: _c, ...rest } = answer;
  const list = unreadList(answer, results);
  let hidden = typeof answer.hiddenBlocks === 'number' ? answer.hiddenBlocks : 0;
  for (const r of results) if (typeof r.data?.hiddenBlocks === 'number') hidden += r.data.hiddenBlocks;
  return {
    ...rest,
    ...(hidden > 0 ? { hiddenBlocks: hidden } : {}),
    ...(list.length === 0 ? {} : { crossOriginFrames: list }),
  };
}

function merge(action: FrameRead, answer: Data, results: FrameResult[], params: Data): Data {
  if (action === 'snapshot') return mergeSnapshot(answer, results);
  if (action === 'text') return mergeText(answer, results);
  const limit = typeof params.limit === 'number' ? params.limit : DEFAULT_LIMIT;
  return mergeItems(action === 'elements' ? 'elements' : 'links', answer, results, limit);
}

type RefEntry = { ref: string; selector: string; kind: string };

function mergeSnapshot(answer: Data, results: FrameResult[]): Data {
  const refs = Array.isArray(answer.refs) ? [...(answer.refs as RefEntry[])] : [];
  const bySlot = new Map(results.map((r) => [r.slot.slot, r]));
  const lines = String(answer.snapshot ?? '').split('\n');
  const out: string[] = [];
  for (const line of lines) {
    const mark = [...line.matchAll(FRAME_MARK)][0];
    if (mark === undefined) {
      out.push(line);
      continue;
    }
    const r = bySlot.get(Number(mark[1]));
    const head = line.slice(0, mark.index).trimEnd();
    if (r === undefined || r.data === undefined || r.hop === undefined) {
      out.push(`${head} (not read: ${r?.reason ?? 'unknown frame'})`);
      continue;
    }
    out.push(`${head} frame ${r.origin ?? ''}`);
    const indent = `${/^ */.exec(line)?.[0] ?? ''}  `;
    const childRefs = Array.isArray(r.data.refs) ? (r.data.refs as RefEntry[]) : [];
    const base = refs.length;
    const hop = r.hop;
    for (const entry of childRefs) refs.push({ ...entry, ref: qualifyRef(hop, entry.ref) });
    const body = String(r.data.snapshot ?? '').replace(
      REF_MARK,
      (_m, i: string) => `${SNAPSHOT_REF_OPEN}${base + Number(i)}${SNAPSHOT_REF_CLOSE}`,
    );
    for (const child of body.split('\n')) if (child.trim() !== '') out.push(`${indent}${child}`);
    if (typeof r.data.notice === 'string' && r.data.truncated === true)
      out.push(`${indent}(frame cut: ${r.data.notice.slice(0, 200)})`);
  }
  return withUnread({ ...answer, snapshot: out.join('\n'), refs }, results);
}

function mergeText(answer: Data, results: FrameResult[]): Data {
  // Frames' text follows the page's, in its last part.
  if (typeof answer.nextOffset === 'number') return withUnread(answer, results);
  let text = String(answer.text ?? '');
  for (const r of results) {
    if (r.data === undefined) continue;
    const inner = String(r.data.text ?? '').trim();
    if (inner !== '') text += `\n\n[frame ${r.origin ?? ''}]\n${inner}`;
  }
  return withUnread({ ...answer, text }, results);
}

function mergeItems(key: 'elements' | 'links', answer: Data, results: FrameResult[], limit: number): Data {
  const items = Array.isArray(answer[key]) ? [...(answer[key] as Data[])] : [];
  let total = typeof answer.total === 'number' ? answer.total : items.length;
  for (const r of results) {
    if (r.data === undefined || r.hop === undefined) continue;
    const hop = r.hop;
    const inner = Array.isArray(r.data[key]) ? (r.data[key] as Data[]) : [];
    for (const item of inner)
      items.push({ ...item, ref: qualifyRef(hop, String(item.ref)), frame: item.frame ?? r.origin });
    total += typeof r.data.total === 'number' ? r.data.total : inner.length;
  }
  const kept = items.slice(0, Math.max(limit, 0));
  return withUnread({ ...answer, [key]: kept, total, truncated: total > kept.length }, results);
}

/**
 * A read as a driver runs it: scoped to an element inside a frame, it runs in that frame; else the top
 * document's answer (`top`, the driver's usual page call with its human check) with its frames filled in.
 */
export async function framedRead(
  pages: FramePages,
  action: FrameRead,
  params: Data,
  top: () => Promise<unknown>,
): Promise<Data> {
  const framed = frameTarget(params.target as ElementTarget | undefined);
  const last = framed?.hops[framed.hops.length - 1];
  if (framed === null || last === undefined)
    return readWithFrames(pages, action, params, null, 0, (await top()) as Data);
  const inner = await readWithFrames(
    pages,
    action,
    { ...params, target: framed.target },
    last.frame,
    framed.hops.length,
  );
  return requalify(action, inner, framed.hops);
}

/** Refs read inside a frame reached through `hops`, named from the top document. */
function requalify(action: FrameRead, data: Data, hops: FrameHop[]): Data {
  const full = (ref: unknown): string => hops.reduceRight((acc, hop) => qualifyRef(hop, acc), String(ref));
  if (action === 'snapshot' && Array.isArray(data.refs))
    return { ...data, refs: (data.refs as RefEntry[]).map((r) => ({ ...r, ref: full(r.ref) })) };
  if (action === 'elements' || action === 'links') {
    const items = Array.isArray(data[action]) ? (data[action] as Data[]) : [];
    const origin = originOf(data.url);
    return {
      ...data,
      [action]: items.map((item) => ({ ...item, ref: full(item.ref), frame: item.frame ?? origin })),
    };
  }
  return data;
}
