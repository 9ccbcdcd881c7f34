/**
 * Compaction of the outline: runs of sibling link lines (menus, tag lists, tables of contents) become
 * `links:` lines of up to eight `[name]ref` items, the same information in about half the bytes.
 */
import { clip } from '../dom/aria';
import type { OutlineLine } from './outline-line';
import { placeholder } from './placeholder';

const LINKS_PER_LINE = 8;
/** Link names in a line of text or a `links:` line are clipped to this. */
export const LINK_NAME_MAX = 40;

/**
 * Runs of sibling link lines (menus, tag lists, tables of contents) become `links:` lines of up to
 * eight `[name]ref` items: the same information in about half the bytes. Parent indexes are remapped.
 */
export function mergeLinkRuns(lines: OutlineLine[]): OutlineLine[] {
  const out: OutlineLine[] = [];
  const newIndex: number[] = [];
  const groupSize = new Map<number, number>();
  const mergeable = (i: number): boolean => {
    const line = lines[i];
    const next = lines[i + 1];
    return line?.link !== undefined && (next === undefined || next.depth <= line.depth);
  };
  lines.forEach((line, i) => {
    const parent = line.parent < 0 ? -1 : (newIndex[line.parent] ?? -1);
    const last = out.length - 1;
    const open = groupSize.get(last);
    if (line.link && mergeable(i)) {
      const item = `[${clip(line.link.name, LINK_NAME_MAX)}]${placeholder(line.link.ref)}`;
      const prev = out[last];
      if (
        open !== undefined &&
        open < LINKS_PER_LINE &&
        prev &&
        prev.depth === line.depth &&
        prev.parent === parent
      ) {
        prev.text += ` ${item}`;
        groupSize.set(last, open + 1);
        newIndex[i] = last;
        return;
      }
      const next = lines[i + 1];
      if (
        next !== undefined &&
        next.depth === line.depth &&
        next.parent === line.parent &&
        mergeable(i + 1)
      ) {
        out.push({ depth: line.depth, text: `links: ${item}`, parent });
        groupSize.set(out.length - 1, 1);
        newIndex[i] = out.length - 1;
        return;
      }
    }
    out.push({ ...line, parent });
    newIndex[i] = out.length - 1;
  });
  return out;
}
