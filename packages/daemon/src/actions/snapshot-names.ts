/**
 * What a snapshot's outline calls each element it marks, read back from the outline's own text so a
 * handle minted by `snapshot` carries its element's name into the browser's activity feed ("Clicked
 * Add Mug to cart"), as handles minted by `elements` and `links` do. A marked line reads
 * `role "name" value=… checked ⟦i⟧`; a link inside a line of text reads `[name]⟦i⟧`. The result is
 * `role "name"` (or the role alone), the form `elements` gives its names in; nothing else of the page.
 */
import { SNAPSHOT_REF_CLOSE, SNAPSHOT_REF_OPEN } from '@bproxy/protocol';

const MARK = new RegExp(`${SNAPSHOT_REF_OPEN}(\\d+)${SNAPSHOT_REF_CLOSE}`, 'g');
/** A role, then its JSON-quoted name when it has one. */
const CONTROL = /^([a-z][\w-]*(?: [a-z][\w-]*)?)(?: ("(?:[^"\\]|\\.)*"))?/i;

function unquote(quoted: string): string | undefined {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The name of each marked ref of `snapshot`, by the ref's index. */
export function snapshotNames(snapshot: string): Map<number, string> {
  const names = new Map<number, string>();
  for (const line of snapshot.split('\n')) {
    for (const match of line.matchAll(MARK)) {
      const index = Number(match[1]);
      const before = line.slice(0, match.index).replace(MARK, '');
      if (before.endsWith(']')) {
        const open = before.lastIndexOf('[');
        const name = before.slice(open + 1, -1).trim();
        if (open >= 0 && name !== '') names.set(index, `link ${JSON.stringify(name)}`);
        continue;
      }
      const control = CONTROL.exec(before.replace(/^[\s-]*/, ''));
      if (!control?.[1]) continue;
      const name = control[2] === undefined ? undefined : unquote(control[2]);
      names.set(
        index,
        name === undefined || name === '' ? control[1] : `${control[1]} ${JSON.stringify(name)}`,
      );
    }
  }
  return names;
}
