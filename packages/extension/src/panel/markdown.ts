/**
 * Safe Markdown for the chat: model output is parsed into a small tree of allow-listed elements and
 * text, then built with createElement and text nodes only. Nothing the model writes is ever parsed as
 * HTML (a peer stored model HTML and injected it again later): `<script>` and `<img onerror>` stay
 * visible text, entities decode into text, and a link keeps its href only when it is http(s). Enough of
 * Markdown for chat answers: paragraphs, headings, lists (nested by indentation), block quotes, fenced
 * code, rules, tables (GitHub's pipes; each cell's text inline Markdown like any other); inline code,
 * emphasis, strong, strike-through, links and bare URLs.
 */

export type MdTag =
  | 'p'
  | 'h1'
  | 'h2'
  | 'h3'
  | 'h4'
  | 'ul'
  | 'ol'
  | 'li'
  | 'blockquote'
  | 'pre'
  | 'code'
  | 'hr'
  | 'br'
  | 'em'
  | 'strong'
  | 'del'
  | 'a'
  | 'table'
  | 'thead'
  | 'tbody'
  | 'tr'
  | 'th'
  | 'td';

export type MdNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'el'; readonly tag: MdTag; readonly children: MdNode[]; readonly href?: string };

/** Past this depth of nesting (quotes in quotes, emphasis in emphasis) the rest is plain text. */
const MAX_DEPTH = 12;

const text = (value: string): MdNode => ({ kind: 'text', text: value });
const el = (tag: MdTag, children: MdNode[] = [], href?: string): MdNode =>
  href === undefined ? { kind: 'el', tag, children } : { kind: 'el', tag, children, href };

const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Decodes character references into characters (they only ever become text). */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** The URL a link may point at: absolute http(s) only; anything else (javascript:, data:, relative) is null. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(decodeEntities(raw.trim()));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

// --- inline -----------------------------------------------------------------------------------------

/** The longest emphasis span (characters between its markers), and the longest inline code span. */
const SPAN_MAX = 2001;
const CODE_MAX = 1002;
/** A link's label and its target are bounded too. */
const LABEL_MAX = 500;

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);
const isWord = (c: string | undefined): boolean => c !== undefined && /\w/.test(c);

/**
 * A pair of markers around a span: `open` at the start, the span's first character not a space (nor
 * one of `notFirst`), and the first closing marker after it that `closes` accepts.
 */
interface Delimited {
  readonly marker: string;
  readonly notFirst: string;
  closes(source: string, at: number): boolean;
  build(inner: MdNode[]): MdNode[];
}

const closesAfterText =
  (marker: string, notBefore = '', wordAfter = true) =>
  (source: string, at: number): boolean => {
    if (!source.startsWith(marker, at)) return false;
    const before = source[at - 1];
    if (before === undefined || isSpace(before) || (notBefore !== '' && before === notBefore)) return false;
    return wordAfter || !isWord(source[at + marker.length]);
  };

// In the order they are tried: `***` before `**` before `*`.
const DELIMITED: readonly Delimited[] = [
  {
    marker: '***',
    notFirst: '',
    closes: closesAfterText('***'),
    build: (inner) => [el('strong', [el('em', inner)])],
  },
  { marker: '**', notFirst: '', closes: closesAfterText('**'), build: (inner) => [el('strong', inner)] },
  {
    marker: '__',
    notFirst: '',
    closes: closesAfterText('__', '', false),
    build: (inner) => [el('strong', inner)],
  },
  { marker: '~~', notFirst: '', closes: closesAfterText('~~'), build: (inner) => [el('del', inner)] },
  { marker: '*', notFirst: '*', closes: closesAfterText('*', '*'), build: (inner) => [el('em', inner)] },
  {
    marker: '_',
    notFirst: '_',
    closes: closesAfterText('_', '_', false),
    build: (inner) => [el('em', inner)],
  },
];

/**
 * What one inline parse looks up, each answered from a table built once per string in a single pass:
 * the next closing marker of a kind, the next `]` or line end, the backtick runs by length. Every
 * attempt at a marker then costs a look-up, not a scan, so a long run of stray markers (`*a *a …`,
 * `**a **a …`, `[[[…`) parses in linear time.
 */
class Lookups {
  private readonly closers: (Int32Array | undefined)[] = [];
  private labelEnds: Int32Array | null = null;
  private runs: Map<number, number[]> | null = null;
  private targets: Map<number, { end: number; href: string } | null> | null = null;

  constructor(readonly source: string) {}

  /** The first position at or after `from` where `kind` closes, or -1. */
  closer(kind: Delimited, from: number): number {
    const index = DELIMITED.indexOf(kind);
    let table = this.closers[index];
    if (table === undefined) {
      const n = this.source.length;
      table = new Int32Array(n + 1);
      table[n] = -1;
      for (let i = n - 1; i >= 0; i--) table[i] = kind.closes(this.source, i) ? i : (table[i + 1] ?? -1);
      this.closers[index] = table;
    }
    return from >= table.length ? -1 : (table[from] ?? -1);
  }

  /** The first `]` or line end at or after `from`, or -1. */
  labelEnd(from: number): number {
    if (this.labelEnds === null) {
      const n = this.source.length;
      const table = new Int32Array(n + 1);
      table[n] = -1;
      for (let i = n - 1; i >= 0; i--)
        table[i] = this.source[i] === ']' || this.source[i] === '\n' ? i : (table[i + 1] ?? -1);
      this.labelEnds = table;
    }
    return from >= this.labelEnds.length ? -1 : (this.labelEnds[from] ?? -1);
  }

  /** The first whole run of exactly `length` backticks starting at or after `from`, or -1. */
  backticks(length: number, from: number): number {
    if (this.runs === null) {
      const runs = new Map<number, number[]>();
      const s = this.source;
      for (let i = 0; i < s.length;) {
        if (s[i] !== '`') {
          i += 1;
          continue;
        }
        let j = i;
        while (s[j] === '`') j += 1;
        const starts = runs.get(j - i) ?? [];
        starts.push(i);
        runs.set(j - i, starts);
        i = j;
      }
      this.runs = runs;
    }
    const starts = this.runs.get(length);
    if (starts === undefined) return -1;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((starts[mid] ?? 0) < from) lo = mid + 1;
      else hi = mid;
    }
    return starts[lo] ?? -1;
  }

  /**
   * The `(target "title")` after a link label's `]` at `close`: where it ends and the target. The
   * same for every `[` that shares this `]`, so it is read once.
   */
  target(close: number): { end: number; href: string } | null {
    this.targets ??= new Map();
    const known = this.targets.get(close);
    if (known !== undefined) return known;
    const found = readTarget(this.source, close + 1);
    this.targets.set(close, found);
    return found;
  }
}

const plainTarget = (c: string | undefined): boolean =>
  c !== undefined && c !== '(' && c !== ')' && !isSpace(c);

/** `(url "title")` at `at`: a URL with balanced one-level parentheses, an optional quoted title. */
function readTarget(s: string, at: number): { end: number; href: string } | null {
  if (s[at] !== '(') return null;
  let i = at + 1;
  while (isSpace(s[i])) i += 1;
  const start = i;
  while (plainTarget(s[i])) i += 1;
  while (s[i] === '(') {
    let j = i + 1;
    while (plainTarget(s[j])) j += 1;
    if (s[j] !== ')') break;
    j += 1;
    while (plainTarget(s[j])) j += 1;
    i = j;
  }
  const href = s.slice(start, i);
  const close = (from: number): number => {
    let k = from;
    while (isSpace(s[k])) k += 1;
    return s[k] === ')' ? k + 1 : -1;
  };
  if (isSpace(s[i])) {
    let k = i;
    while (isSpace(s[k])) k += 1;
    if (s[k] === '"') {
      k += 1;
      while (k < s.length && s[k] !== '"' && s[k] !== '\n') k += 1;
      if (s[k] === '"') {
        const end = close(k + 1);
        if (end >= 0) return { end, href };
      }
    }
  }
  const end = close(i);
  return end < 0 ? null : { end, href };
}

const BARE_URL = /https?:\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]/y;

function link(raw: string): MdNode[] {
  const href = safeHref(raw);
  return href === null ? [text(raw)] : [el('a', [text(raw)], href)];
}

/** Where an inline rule may start: a marker character, or the `h` of a URL at a word boundary. */
function mayStart(source: string, at: number): boolean {
  const c = source[at];
  if (c === '`' || c === '[' || c === '*' || c === '~') return true;
  const before = at === 0 ? ' ' : (source[at - 1] ?? ' ');
  if (c === '_') return !/\w/.test(before);
  return c === 'h' && !/\w/.test(before);
}

/** The inline rule that matches at `at`, tried in order: code, link, bare URL, then emphasis. */
function matchAt(look: Lookups, at: number, depth: number): { nodes: MdNode[]; end: number } | null {
  const s = look.source;
  const c = s[at];
  if (c === '`') {
    let open = at;
    while (s[open] === '`') open += 1;
    const length = open - at;
    if (open >= s.length || s[open] === '`') return null;
    const close = look.backticks(length, open + 1);
    if (close < 0 || close - open > CODE_MAX) return null;
    return { nodes: [el('code', [text(s.slice(open, close))])], end: close + length };
  }
  if (c === '[') {
    const close = look.labelEnd(at + 1);
    if (close < 0 || s[close] !== ']' || close - at - 1 > LABEL_MAX) return null;
    const target = look.target(close);
    if (target === null) return null;
    const label = inline(s.slice(at + 1, close), depth + 1);
    const href = safeHref(target.href);
    return { nodes: href === null ? label : [el('a', label, href)], end: target.end };
  }
  if (c === 'h') {
    BARE_URL.lastIndex = at;
    const url = BARE_URL.exec(s);
    return url === null ? null : { nodes: link(url[0]), end: at + url[0].length };
  }
  for (const kind of DELIMITED) {
    if (!s.startsWith(kind.marker, at)) continue;
    const first = at + kind.marker.length;
    const head = s[first];
    if (head === undefined || isSpace(head) || (kind.notFirst !== '' && head === kind.notFirst)) continue;
    const close = look.closer(kind, first + 1);
    if (close < 0 || close - first > SPAN_MAX) continue;
    const inner = inline(s.slice(first, close), kind.marker === '***' ? depth + 2 : depth + 1);
    return { nodes: kind.build(inner), end: close + kind.marker.length };
  }
  return null;
}

export function inline(source: string, depth = 0): MdNode[] {
  if (depth > MAX_DEPTH) return [text(decodeEntities(source))];
  let look: Lookups | null = null;
  const out: MdNode[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push(text(decodeEntities(plain)));
    plain = '';
  };
  let at = 0;
  while (at < source.length) {
    const c = source[at] ?? '';
    if (c === '\\' && at + 1 < source.length && /[\\`*_[\]()#+\-.!~>|{}]/.test(source[at + 1] ?? '')) {
      plain += source[at + 1];
      at += 2;
      continue;
    }
    if (c === '\n') {
      flush();
      out.push(el('br'));
      at += 1;
      continue;
    }
    const match = mayStart(source, at) ? matchAt((look ??= new Lookups(source)), at, depth) : null;
    if (match === null) {
      plain += c;
      at += 1;
      continue;
    }
    flush();
    for (const node of match.nodes) out.push(node);
    at = match.end;
  }
  flush();
  return out;
}

// --- blocks -----------------------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A table's delimiter row: `| --- | :-: |`, each cell dashes with an optional colon either side. */
const TABLE_DELIMITER = /^ {0,3}\|?(?:[ \t]*:?-+:?[ \t]*\|)*[ \t]*:?-+:?[ \t]*\|?[ \t]*$/;
/** At most this many columns: the rest of a wider row is dropped. */
const TABLE_COLUMNS = 64;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;

/**
 * A heading line (`## text ##`): its level and text, or null. Read by hand: the pattern it replaces
 * backtracked cubically on a heading line full of spaces.
 */
function heading(line: string): { level: number; text: string } | null {
  let at = 0;
  while (at < 3 && line[at] === ' ') at += 1;
  let hashes = 0;
  while (line[at + hashes] === '#') hashes += 1;
  if (hashes < 1 || hashes > 6 || !isSpace(line[at + hashes])) return null;
  let body = line.slice(at + hashes).trim();
  let end = body.length;
  while (end > 0 && body[end - 1] === '#') end -= 1;
  body = body.slice(0, end).trimEnd();
  if (/[\r\u2028\u2029]/.test(body)) return null;
  return { level: Math.min(hashes, 4), text: body };
}

/**
 * The cells of a table row: split at each `|` not escaped by a backslash, without the row's outer
 * pipes. An escaped pipe stays in its cell (the inline parse turns `\|` into `|`).
 */
export function tableCells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    const c = row[i] ?? '';
    if (c === '\\' && row[i + 1] === '|') {
      cell += '\\|';
      i += 1;
    } else if (c === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

/** Whether `lines[at]` starts a table: a row with a pipe, then a delimiter row of as many cells. */
function tableStart(lines: readonly string[], at: number): boolean {
  const head = lines[at] ?? '';
  const delimiter = lines[at + 1];
  if (!head.includes('|') || delimiter === undefined || !TABLE_DELIMITER.test(delimiter)) return false;
  return tableCells(head).length === tableCells(delimiter).length;
}

/** A table from `lines[start]` (tableStart): its rows run to a blank line or a line with no pipe. */
function table(lines: readonly string[], start: number, depth: number): Block {
  const columns = Math.min(tableCells(lines[start] ?? '').length, TABLE_COLUMNS);
  const row = (line: string, tag: 'th' | 'td'): MdNode => {
    const cells = tableCells(line);
    return el(
      'tr',
      Array.from({ length: columns }, (_, c) => el(tag, inline(cells[c] ?? '', depth + 1))),
    );
  };
  const body: MdNode[] = [];
  let i = start + 2;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || !line.includes('|')) break;
    body.push(row(line, 'td'));
    i += 1;
  }
  const head = el('thead', [row(lines[start] ?? '', 'th')]);
  return { node: el('table', body.length === 0 ? [head] : [head, el('tbody', body)]), next: i };
}

function indentOf(line: string): number {
  return (/^\s*/.exec(line)?.[0] ?? '').replace(/\t/g, '    ').length;
}

/**
 * A list starting at `lines[start]`: items by indentation, deeper items nested in the one above — to
 * MAX_DEPTH levels; items deeper than that stay in the deepest list, so no input nests it further.
 */
function list(lines: readonly string[], start: number, depth: number): { node: MdNode; next: number } {
  const first = ITEM.exec(lines[start] ?? '');
  const base = indentOf(lines[start] ?? '');
  const ordered = first !== null && /\d/.test(first[2] ?? '');
  const items: MdNode[] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    const item = ITEM.exec(line);
    const indent = indentOf(line);
    if (item === null || indent < base) break;
    // A bullet after numbers (or the other way round) at the same depth starts a new list.
    if (indent === base && /\d/.test(item[2] ?? '') !== ordered) break;
    if (indent > base && depth < MAX_DEPTH) {
      // A deeper item: a list nested in the previous item.
      const nested = list(lines, i, depth + 1);
      const last = items[items.length - 1];
      if (last !== undefined && last.kind === 'el') last.children.push(nested.node);
      else items.push(el('li', [nested.node]));
      i = nested.next;
      continue;
    }
    const body = [item[3] ?? ''];
    i += 1;
    // Lazy continuation lines (indented, not items) belong to this item.
    while (
      i < lines.length &&
      !ITEM.exec(lines[i] ?? '') &&
      indentOf(lines[i] ?? '') > base &&
      (lines[i] ?? '').trim() !== ''
    ) {
      body.push((lines[i] ?? '').trim());
      i += 1;
    }
    items.push(el('li', inline(body.join('\n'), depth + 1)));
  }
  return { node: el(ordered ? 'ol' : 'ul', items), next: i };
}

/** One block and the line after it (past the end when it ran to the end, as an unclosed fence does). */
interface Block {
  readonly node: MdNode;
  readonly next: number;
}

/**
 * The blocks of `lines`. A block's extent is decided by its own lines and the one line after it, and
 * the parse of what follows does not depend on what came before: this is what lets a streamed answer
 * keep the blocks it has finished and parse again only the last one (MarkdownStream). One exception,
 * a table that interrupts a paragraph, needs the two lines after it: its header and its delimiter row,
 * which ends the paragraph only once complete (`growing`: the last line may still grow).
 */
function blocks(lines: readonly string[], depth: number, growing = false): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence !== null) {
      const marker = fence[1] ?? '```';
      const code: string[] = [];
      i += 1;
      // An unclosed fence runs to the end: a streamed answer shows its code block as it grows.
      while (i < lines.length && !(lines[i] ?? '').trimStart().startsWith(marker))
        code.push(lines[i++] ?? '');
      i += 1;
      out.push({ node: el('pre', [el('code', [text(code.join('\n'))])]), next: i });
      continue;
    }
    const title = heading(line);
    if (title !== null) {
      i += 1;
      out.push({ node: el(`h${title.level}` as MdTag, inline(title.text, depth + 1)), next: i });
      continue;
    }
    if (RULE.test(line)) {
      i += 1;
      out.push({ node: el('hr'), next: i });
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? ''))
        quoted.push(QUOTE.exec(lines[i++] ?? '')?.[1] ?? '');
      const inner =
        depth >= MAX_DEPTH ? [text(quoted.join('\n'))] : blocks(quoted, depth + 1).map((b) => b.node);
      out.push({ node: el('blockquote', inner), next: i });
      continue;
    }
    if (ITEM.test(line)) {
      const found = list(lines, i, depth);
      i = found.next;
      out.push({ node: found.node, next: i });
      continue;
    }
    if (tableStart(lines, i)) {
      const found = table(lines, i, depth);
      i = found.next;
      out.push(found);
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length) {
      const next = lines[i] ?? '';
      if (next.trim() === '' || FENCE.test(next) || heading(next) !== null || QUOTE.test(next)) break;
      if (paragraph.length > 0 && (ITEM.test(next) || RULE.test(next))) break;
      if (paragraph.length > 0 && i + 1 < lines.length - (growing ? 1 : 0) && tableStart(lines, i)) break;
      paragraph.push(next.trim());
      i += 1;
    }
    out.push({ node: el('p', inline(paragraph.join('\n'), depth + 1)), next: i });
  }
  return out;
}

const lineBreaks = (source: string): string => source.replace(/\r\n?/g, '\n');

export function parseMarkdown(source: string, depth = 0): MdNode[] {
  return blocks(lineBreaks(source).split('\n'), depth).map((b) => b.node);
}

// --- DOM --------------------------------------------------------------------------------------------

/** What the renderer needs of `document`: elements and text nodes, nothing that parses HTML. */
export interface NodeFactory<N> {
  createElement(
    tag: MdTag,
  ): N & { append(...nodes: N[]): void; setAttribute(name: string, value: string): void };
  createTextNode(value: string): N;
}

export function buildNodes<N>(nodes: readonly MdNode[], factory: NodeFactory<N>): N[] {
  return nodes.map((node) => {
    if (node.kind === 'text') return factory.createTextNode(node.text);
    const element = factory.createElement(node.tag);
    if (node.tag === 'a' && node.href !== undefined) {
      element.setAttribute('href', node.href);
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
    element.append(...buildNodes(node.children, factory));
    return element;
  });
}

/**
 * How much of an answer is rendered as Markdown: its first MARKDOWN_CAP characters (cut at the last
 * line break before that when there is one in the last quarter). The rest is one plain paragraph of
 * text, its lines kept: no markup, no parse, so its cost is the text's own length.
 */
export const MARKDOWN_CAP = 32_768;

/** Where the Markdown part of `source` ends, once `source` reached the cap. */
function cutAt(source: string, cap: number): number {
  const lastBreak = source.lastIndexOf('\n', cap - 1);
  if (lastBreak >= cap - cap / 4) return lastBreak + 1;
  // Never between the two halves of a surrogate pair.
  const code = source.charCodeAt(cap - 1);
  return code >= 0xd800 && code <= 0xdbff ? cap - 1 : cap;
}

/** What a streamed answer needs of DOM nodes, beyond building them. */
export interface StreamNode<N> {
  remove(): void;
  replaceWith(node: N): void;
}

export interface StreamFactory<N> extends NodeFactory<N> {
  /** Sets a text node's text, or (`append`) adds to its end. */
  setText(node: N, value: string, append: boolean): void;
}

type Element<N> = N & { append(...nodes: N[]): void; setAttribute(name: string, value: string): void };

/** A node as built: the parsed node it shows, its DOM node, and its children as built. */
interface Built<N> {
  readonly md: MdNode;
  readonly dom: N;
  readonly element: Element<N> | null;
  readonly kids: Built<N>[];
}

const sameKind = (a: MdNode, b: MdNode): boolean =>
  a.kind === 'text' ? b.kind === 'text' : b.kind === 'el' && a.tag === b.tag && a.href === b.href;

/**
 * An answer rendered as it streams in: `append` takes each piece (cheap: no parse), `render` brings the
 * DOM up to date. A block whose end is settled — a complete line after it decided where it ends — is
 * built once and kept; only the blocks after it (in practice the last one) are parsed again, and their
 * DOM is patched, not rebuilt: a paragraph that grew gets the new text appended to its last text node,
 * so the browser lays out what changed. Past the Markdown cap the rest grows as plain text, line by
 * line. The DOM after the last `render` is the DOM `renderMarkdown` builds from the whole text at once.
 */
export class MarkdownStream<N extends StreamNode<N>> {
  private source = '';
  private carriageReturn = false;
  /** Where the unsettled part of the Markdown starts (a line start in `source`). */
  private settled = 0;
  private open: Built<N>[] = [];
  /** Where the Markdown part ends, once the answer reached the cap. */
  private cut: number | null = null;
  private plain: {
    readonly paragraph: Element<N>;
    /** Where the plain text's last, still growing line starts. */
    from: number;
    last: N | null;
  } | null = null;
  /** Characters handed to the block parser so far (what a render costs; tests read it). */
  parsed = 0;

  constructor(
    private readonly container: { append(...nodes: N[]): void },
    private readonly factory: StreamFactory<N>,
    private readonly cap = MARKDOWN_CAP,
  ) {}

  get text(): string {
    return this.source;
  }

  append(piece: string): void {
    let added = piece;
    // A `\r\n` split between two pieces is one line break: the `\r` already was.
    if (this.carriageReturn && added.startsWith('\n')) added = added.slice(1);
    this.carriageReturn = added.endsWith('\r');
    if (added === '') return;
    this.source += lineBreaks(added);
    if (this.cut === null && this.source.length >= this.cap) this.cut = cutAt(this.source, this.cap);
  }

  render(): void {
    const end = this.cut ?? this.source.length;
    if (this.settled < end || this.open.length > 0) this.renderMarkdown(end, this.cut !== null);
    if (this.cut !== null) this.renderPlain(this.cut);
  }

  private renderMarkdown(end: number, final: boolean): void {
    const lines = this.source.slice(this.settled, end).split('\n');
    this.parsed += end - this.settled;
    // The last line may still grow, unless the Markdown part is complete.
    const complete = final ? Infinity : lines.length - 1;
    const found = blocks(lines, 0, !final);
    const built = this.patch(
      this.container,
      this.open,
      found.map((b) => b.node),
    );
    let kept = 0;
    let line = 0;
    for (const block of found) {
      if (block.next >= complete) break;
      for (; line < block.next; line++) this.settled += (lines[line] ?? '').length + 1;
      kept += 1;
    }
    if (final) this.settled = end;
    this.open = final ? [] : built.slice(kept);
  }

  /** Makes the DOM of `was` show `nodes`: what is alike is kept, a grown text is appended to. */
  private patch(
    parent: { append(...nodes: N[]): void },
    was: readonly Built<N>[],
    nodes: readonly MdNode[],
  ): Built<N>[] {
    const out = nodes.map((md, i): Built<N> => {
      const old = was[i];
      if (old === undefined) {
        const fresh = this.build(md);
        parent.append(fresh.dom);
        return fresh;
      }
      if (!sameKind(old.md, md)) {
        const fresh = this.build(md);
        old.dom.replaceWith(fresh.dom);
        return fresh;
      }
      if (md.kind === 'text') {
        const before = old.md.kind === 'text' ? old.md.text : '';
        if (md.text !== before) {
          const grown = md.text.startsWith(before);
          this.factory.setText(old.dom, grown ? md.text.slice(before.length) : md.text, grown);
        }
        return { md, dom: old.dom, element: null, kids: [] };
      }
      const kids = old.element === null ? [] : this.patch(old.element, old.kids, md.children);
      return { md, dom: old.dom, element: old.element, kids };
    });
    for (const old of was.slice(nodes.length)) old.dom.remove();
    return out;
  }

  private build(md: MdNode): Built<N> {
    if (md.kind === 'text') return { md, dom: this.factory.createTextNode(md.text), element: null, kids: [] };
    const element = this.factory.createElement(md.tag);
    if (md.tag === 'a' && md.href !== undefined) {
      element.setAttribute('href', md.href);
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
    const kids = md.children.map((child) => this.build(child));
    element.append(...kids.map((kid) => kid.dom));
    return { md, dom: element, element, kids };
  }

  private renderPlain(cut: number): void {
    if (this.plain === null) {
      const paragraph = this.factory.createElement('p');
      this.container.append(paragraph);
      this.plain = { paragraph, from: cut, last: null };
    }
    const plain = this.plain;
    plain.last?.remove();
    plain.last = null;
    const lines = this.source.slice(plain.from).split('\n');
    lines.forEach((line, index) => {
      const node = line === '' ? null : this.factory.createTextNode(line);
      if (node !== null) plain.paragraph.append(node);
      if (index < lines.length - 1) {
        plain.paragraph.append(this.factory.createElement('br'));
        plain.from += line.length + 1;
      } else plain.last = node;
    });
  }
}

/** Builds with `doc`: createElement and text nodes only. */
export function domFactory(doc: Document): StreamFactory<ChildNode> {
  return {
    createElement: (tag) => doc.createElement(tag),
    createTextNode: (value) => doc.createTextNode(value),
    setText(node, value, append) {
      if (node.nodeType !== Node.TEXT_NODE) return;
      const textNode = node as Text;
      if (append) textNode.appendData(value);
      else textNode.data = value;
    },
  };
}

/** Model text as DOM nodes: elements from the allow-list and text nodes, never parsed HTML. */
export function renderMarkdown(source: string, doc: Document = document): Node[] {
  const nodes: ChildNode[] = [];
  const stream = new MarkdownStream<ChildNode>(
    { append: (...more) => void nodes.push(...more) },
    domFactory(doc),
  );
  stream.append(source);
  stream.render();
  return nodes;
}
