/**
 * `snapshot`: the outline as text for a language model, with paging (`offset`, `maxChars`), a
 * `contains` filter (matching lines and their ancestors) and a notice saying what was cut and how to
 * get the rest. Placeholders are renumbered so `refs` holds only the elements of the returned part.
 */
import type { SnapshotDriverResult } from '@bproxy/protocol';
import { SNAPSHOT_REF_CLOSE, SNAPSHOT_REF_OPEN } from '@bproxy/protocol/plain';
import { FrameReport } from '../dom/flat-tree';
import { readRoot } from '../dom/resolve';
import { buildSelector } from '../dom/selector';
import type { PageContext } from '../context';
import { optNumber, optString, optTarget, type Params } from '../params';
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
    if (!line.text.replace(PLACEHOLDER, '').toLowerCase().includes(lower)) return;
    for (let i = index; i >= 0 && !keep.has(i); i = lines[i]?.parent ?? -1) keep.add(i);
  });
  return lines.filter((_, index) => keep.has(index));
}

export function snapshot(ctx: PageContext, p: Params): SnapshotDriverResult {
  const maxChars = optNumber(p, 'maxChars') ?? DEFAULT_MAX_CHARS;
  const offset = optNumber(p, 'offset') ?? 0;
  const contains = optString(p, 'contains');
  const target = optTarget(p);
  const frames = new FrameReport();
  const outline = buildOutline(readRoot(target, ctx.registry), frames);
  const lines = contains ? filterLines(outline.lines, contains) : outline.lines;

  const rendered = lines.map(render);
  const starts: number[] = [];
  let total = 0;
  for (const text of rendered) {
    starts.push(total);
    total += text.length + 1;
  }
  total = Math.max(0, total - 1);

  // The part is made of whole lines: from the line holding `offset` until `maxChars` is reached.
  let first = starts.findIndex((start, i) => start + (rendered[i]?.length ?? 0) >= offset);
  if (first < 0) first = rendered.length;
  let last = first;
  let size = 0;
  while (last < rendered.length) {
    const len = (rendered[last]?.length ?? 0) + 1;
    if (last > first && size + len > maxChars) break;
    size += len;
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
    ...frames.field(),
  };
  if (last < rendered.length) result.nextOffset = starts[last] ?? total;
  if (truncated)
    result.notice = notice(first, last, rendered.length, starts, total, result.nextOffset, contains);
  else if (contains && lines.length === 0) result.notice = `No line contains "${contains}".`;
  return result;
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
