/**
 * `snapshot`: the outline as text for a language model, with paging (`offset`, `maxChars`), a
 * `contains` filter (matching lines and their ancestors) and a notice saying what was cut or left out
 * and how to get it. Long text runs are left out of a whole-page snapshot (see outline.ts) and kept
 * with `contains` or a target. Placeholders are renumbered so `refs` holds only the elements of the
 * returned part.
 */
import type { SnapshotDriverResult } from '@bproxy/protocol';
import {
  HANDLES_PER_READ,
  SNAPSHOT_FRAME_OPEN,
  SNAPSHOT_REF_CLOSE,
  SNAPSHOT_REF_OPEN,
} from '@bproxy/protocol/plain';
import { FrameReport } from '../dom/flat-tree';
import { readRoot } from '../dom/resolve';
import { inView } from './annotate';
import { buildSelector } from '../dom/selector';
import { UnseenText } from '../dom/unseen';
import type { PageContext } from '../context';
import { optBoolean, optNumber, optString, optTarget, type Params } from '../params';
import { buildOutline, placeholder, type OutlineLine } from '../render/outline';

const DEFAULT_MAX_CHARS = 12_000;
const PLACEHOLDER = new RegExp(`${SNAPSHOT_REF_OPEN}(\\d+)${SNAPSHOT_REF_CLOSE}`, 'g');

function render(line: OutlineLine): string {
  return `${'  '.repeat(line.depth)}${line.text}`;
}

function filterLines(lines: OutlineLine[], needle: string): OutlineLine[] {
  const keep = new Set<number>();
  const lower = needle.toLowerCase();
  lines.forEach((line, index) => {
    // A frame's line stays: what the frame holds is searched when the driver reads it.
    const frame = line.text.includes(SNAPSHOT_FRAME_OPEN);
    if (!frame && !line.text.replace(PLACEHOLDER, '').toLowerCase().includes(lower)) return;
    for (let i = index; i >= 0 && !keep.has(i); i = lines[i]?.parent ?? -1) keep.add(i);
  });
  return lines.filter((_, index) => keep.has(index));
}

export function snapshot(ctx: PageContext, p: Params): SnapshotDriverResult {
  if (optBoolean(p, 'inView') === true) return inView(ctx);
  const maxChars = optNumber(p, 'maxChars') ?? DEFAULT_MAX_CHARS;
  const offset = optNumber(p, 'offset') ?? 0;
  const contains = optString(p, 'contains');
  const target = optTarget(p);
  const frames = new FrameReport();
  // Asked for one subtree or for matching lines, the agent wants the words too: prose is kept.
  const prose = contains !== undefined || target !== undefined;
  // For a diff the daemon also wants the long runs left out: new text is news whatever its length.
  const longText = optBoolean(p, 'diff') === true;
  const outline = buildOutline(readRoot(target, ctx.registry), frames, { prose, longText }, new UnseenText());
  const lines = contains ? filterLines(outline.lines, contains) : outline.lines;

  const rendered = lines.map(render);
  const starts: number[] = [];
  let total = 0;
  for (const text of rendered) {
    starts.push(total);
    total += text.length + 1;
  }
  total = Math.max(0, total - 1);

  // The part is made of whole lines: from the line holding `offset` until `maxChars` is reached, or
  // until one more line would bring more refs of a kind than the daemon mints handles for.
  let first = starts.findIndex((start, i) => start + (rendered[i]?.length ?? 0) >= offset);
  if (first < 0) first = rendered.length;
  let last = first;
  let size = 0;
  const counted = { el: 0, ln: 0 };
  while (last < rendered.length) {
    const line = rendered[last] ?? '';
    const len = line.length + 1;
    const kinds = { el: 0, ln: 0 };
    for (const m of line.matchAll(PLACEHOLDER)) {
      const kind = outline.refs[Number(m[1])]?.kind;
      if (kind !== undefined) kinds[kind]++;
    }
    const tooMany = counted.el + kinds.el > HANDLES_PER_READ || counted.ln + kinds.ln > HANDLES_PER_READ;
    if (last > first && (size + len > maxChars || tooMany)) break;
    size += len;
    counted.el += kinds.el;
    counted.ln += kinds.ln;
    last++;
  }
  const refs: SnapshotDriverResult['refs'] = [];
  const renumbered = new Map<number, number>();
  const text = rendered
    .slice(first, last)
    .join('\n')
    .replace(PLACEHOLDER, (_, index: string) => {
      const global = Number(index);
      let local = renumbered.get(global);
      if (local === undefined) {
        const entry = outline.refs[global];
        if (entry === undefined) return '';
        local = refs.length;
        renumbered.set(global, local);
        refs.push({
          ref: ctx.registry.refFor(entry.el),
          selector: buildSelector(entry.el),
          kind: entry.kind,
        });
      }
      return placeholder(local);
    });

  const truncated = first > 0 || last < rendered.length;
  const result: SnapshotDriverResult = {
    url: location.href,
    title: document.title,
    snapshot: text,
    refs,
    totalChars: total,
    truncated,
    ...frames.field((el) => ctx.registry.refFor(el)),
  };
  if (last < rendered.length) result.nextOffset = starts[last] ?? total;
  if (outline.hiddenBlocks > 0) result.hiddenBlocks = outline.hiddenBlocks;
  if (longText && outline.longText.length > 0) result.longText = outline.longText;
  const notices: string[] = [];
  if (truncated)
    notices.push(notice(first, last, rendered.length, starts, total, result.nextOffset, contains));
  else if (contains && lines.length === 0) notices.push(`No line contains "${contains}".`);
  if (outline.omitted.runs > 0) notices.push(omittedNotice(outline.omitted));
  if (notices.length > 0) result.notice = notices.join(' ');
  return result;
}

/** Says that long text was left out and how to get it, in few words: it ends most snapshots. */
function omittedNotice(omitted: { runs: number; chars: number }): string {
  const chars = omitted.chars < 1000 ? `${omitted.chars}` : `${(omitted.chars / 1000).toFixed(1)}k`;
  const runs = omitted.runs === 1 ? '1 long text run' : `${omitted.runs} long text runs`;
  return `${runs} (${chars} chars) left out: read them with text, or snapshot with contains= or a target.`;
}

function notice(
  first: number,
  last: number,
  count: number,
  starts: number[],
  total: number,
  next: number | undefined,
  contains?: string,
): string {
  const from = starts[first] ?? total;
  const filtered = contains ? ` matching contains="${contains}"` : '';
  const parts = [
    `Showing lines ${first + 1}-${last} of ${count}${filtered} (chars ${from}-${next ?? total} of ${total}).`,
  ];
  parts.push(next === undefined ? 'This is the last part.' : `For the next part repeat with offset=${next}.`);
  parts.push(
    'To narrow instead: pass target (an element handle) for one subtree, or contains="word" to keep matching lines.',
  );
  return parts.join(' ');
}
