/**
 * The lines that changed between two snapshots of one scope, written for a language model: `+ line`
 * added, `- line` removed, `~ line` changed (the new line; the element kept its handle, or a line of
 * the same kind took the place of another), no context lines, indentation dropped. Removed lines are
 * the cheap part: the agent read them before, and what it needs is which handles are dead, so a run of
 * removed lines that holds a handle is one line naming every handle that went (`- 7 lines gone: ln4
 * el9 el10`); a removed line alone, or a run without handles (text that went away), stays whole. Handles are the
 * same across reads for the same node (element-handles.ts), so an unchanged element is an unchanged
 * line. New long text runs, which a whole snapshot leaves to `text`, follow as `+ text:` lines, cut
 * at LONG_TEXT_SHOWN characters each and LONG_TEXT_TOTAL in all, with a continuation.
 */

/** Past this many cells (removed × added lines between the common head and tail), lines are not matched up: all are replaced. */
const MATCH_CELLS = 4_000_000;
export const LONG_TEXT_SHOWN = 600;
export const LONG_TEXT_TOTAL = 3000;

type Op = { op: '=' | '-' | '+'; line: string };

const HANDLE = /\[((?:el|ln)\d+)\]/;
const HANDLES = /\[((?:el|ln)\d+)\]/g;

/** Two lines stand for the same thing when they carry the same handle, or (no handle) start with the same word. */
function keyOf(line: string): string {
  const handle = HANDLE.exec(line);
  if (handle?.[1] !== undefined) return `h:${handle[1]}`;
  const word = /^\S+/.exec(line.trim());
  return `w:${word?.[0] ?? ''}`;
}

function editScript(prev: readonly string[], next: readonly string[]): Op[] {
  let head = 0;
  while (head < prev.length && head < next.length && prev[head] === next[head]) head++;
  let tail = 0;
  while (
    tail < prev.length - head &&
    tail < next.length - head &&
    prev[prev.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail++;
  const a = prev.slice(head, prev.length - tail);
  const b = next.slice(head, next.length - tail);
  const ops: Op[] = prev.slice(0, head).map((line) => ({ op: '=', line }));
  if (a.length * b.length > MATCH_CELLS) {
    ops.push(...a.map((line): Op => ({ op: '-', line })), ...b.map((line): Op => ({ op: '+', line })));
  } else {
    // Longest common subsequence, lengths of the suffixes: lcs[i][j] for a[i..], b[j..].
    const width = b.length + 1;
    const lcs = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        lcs[i * width + j] =
          a[i] === b[j]
            ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const ai = a[i];
      const bj = b[j];
      if (ai !== undefined && bj !== undefined && ai === bj) {
        ops.push({ op: '=', line: ai });
        i++;
        j++;
      } else if (
        bj !== undefined &&
        (ai === undefined || (lcs[i * width + j + 1] ?? 0) >= (lcs[(i + 1) * width + j] ?? 0))
      ) {
        ops.push({ op: '+', line: bj });
        j++;
      } else if (ai !== undefined) {
        ops.push({ op: '-', line: ai });
        i++;
      }
    }
  }
  ops.push(...prev.slice(prev.length - tail).map((line): Op => ({ op: '=', line })));
  return ops;
}

/** The removed lines of one run that did not pair with an added one: whole, or one line naming their handles. */
function gone(removed: readonly string[], out: string[]): void {
  // Every handle of each line: a `links:` line holds several.
  const handles = removed.flatMap((line) => [...line.matchAll(HANDLES)].flatMap((m) => m[1] ?? []));
  if (removed.length < 2 || handles.length === 0) {
    for (const line of removed) out.push(`- ${line.trim()}`);
    return;
  }
  out.push(`- ${removed.length} lines gone: ${handles.join(' ')}`);
}

/** One run of removed and added lines: removed ones first, then the added ones in page order, each `~` when it pairs with a removed one. */
function hunk(removed: string[], added: string[], out: string[]): void {
  const paired = new Set<number>();
  const marks = added.map((line) => {
    const key = keyOf(line);
    const match = removed.findIndex((old, k) => !paired.has(k) && keyOf(old) === key);
    if (match < 0) return '+';
    paired.add(match);
    return '~';
  });
  gone(
    removed.filter((_, k) => !paired.has(k)),
    out,
  );
  added.forEach((line, k) => out.push(`${marks[k] ?? '+'} ${line.trim()}`));
}

/** The changed lines of an outline, then its new long text: empty when nothing changed. */
export function diffSnapshot(
  prev: { lines: readonly string[]; longText: readonly string[] },
  next: { lines: readonly string[]; longText: readonly string[] },
): string[] {
  const out: string[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  for (const { op, line } of editScript(prev.lines, next.lines)) {
    if (op === '-') removed.push(line);
    else if (op === '+') added.push(line);
    else if (removed.length > 0 || added.length > 0) {
      hunk(removed, added, out);
      removed = [];
      added = [];
    }
  }
  if (removed.length > 0 || added.length > 0) hunk(removed, added, out);

  const seen = new Set(prev.longText);
  const fresh = next.longText.filter((text) => !seen.has(text));
  let budget = LONG_TEXT_TOTAL;
  for (const [k, text] of fresh.entries()) {
    if (budget <= 0) {
      const left = fresh.length - k;
      out.push(`(${left} more new text ${left === 1 ? 'run' : 'runs'}: read them with text)`);
      break;
    }
    const room = Math.min(LONG_TEXT_SHOWN, budget);
    const cut = text.length > room;
    out.push(`+ text: ${cut ? `${text.slice(0, room).trimEnd()}… (cut: text reads it whole)` : text}`);
    budget -= Math.min(text.length, room);
  }
  return out;
}
