/**
 * Safe Markdown for the chat: model output is parsed into a small tree of allow-listed elements and
 * text, then built with createElement and text nodes only. Nothing the model writes is ever parsed as
 * HTML (a peer stored model HTML and injected it again later): `<script>` and `<img onerror>` stay
 * visible text, entities decode into text, and a link keeps its href only when it is http(s). Enough of
 * Markdown for chat answers: paragraphs, headings, lists (nested by indentation), block quotes, fenced
 * code, rules; inline code, emphasis, strong, strike-through, links and bare URLs.
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
  | 'a';

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

interface InlineRule {
  readonly pattern: RegExp;
  build(match: RegExpExecArray, depth: number): MdNode[];
}

// Spans are bounded (a few thousand characters) so that a long answer full of stray markers, parsed
// again on every streamed delta, stays linear rather than quadratic.
const INLINE: readonly InlineRule[] = [
  { pattern: /(`+)([^`]|[^`][\s\S]{0,1000}?[^`])\1(?!`)/y, build: (m) => [el('code', [text(m[2] ?? '')])] },
  {
    pattern: /\[([^\]\n]{0,500})\]\(\s*([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"\n]*")?\s*\)/y,
    build: (m, depth) => {
      const label = inline(m[1] ?? '', depth + 1);
      const href = safeHref(m[2] ?? '');
      return href === null ? label : [el('a', label, href)];
    },
  },
  { pattern: /https?:\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]/y, build: (m) => link(m[0]) },
  {
    pattern: /\*\*\*(?=\S)([\s\S]{0,2000}?\S)\*\*\*/y,
    build: (m, d) => [el('strong', [el('em', inline(m[1] ?? '', d + 2))])],
  },
  {
    pattern: /\*\*(?=\S)([\s\S]{0,2000}?\S)\*\*/y,
    build: (m, d) => [el('strong', inline(m[1] ?? '', d + 1))],
  },
  {
    pattern: /__(?=\S)([\s\S]{0,2000}?\S)__(?!\w)/y,
    build: (m, d) => [el('strong', inline(m[1] ?? '', d + 1))],
  },
  { pattern: /~~(?=\S)([\s\S]{0,2000}?\S)~~/y, build: (m, d) => [el('del', inline(m[1] ?? '', d + 1))] },
  {
    pattern: /\*(?=[^\s*])([\s\S]{0,2000}?[^\s*])\*/y,
    build: (m, d) => [el('em', inline(m[1] ?? '', d + 1))],
  },
  {
    pattern: /_(?=[^\s_])([\s\S]{0,2000}?[^\s_])_(?!\w)/y,
    build: (m, d) => [el('em', inline(m[1] ?? '', d + 1))],
  },
];

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

export function inline(source: string, depth = 0): MdNode[] {
  if (depth > MAX_DEPTH) return [text(decodeEntities(source))];
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
    let matched = false;
    if (mayStart(source, at)) {
      for (const rule of INLINE) {
        rule.pattern.lastIndex = at;
        const match = rule.pattern.exec(source);
        if (match === null) continue;
        flush();
        out.push(...rule.build(match, depth));
        at += match[0].length;
        matched = true;
        break;
      }
    }
    if (!matched) {
      plain += c;
      at += 1;
    }
  }
  flush();
  return out;
}

// --- blocks -----------------------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;

function indentOf(line: string): number {
  return (/^\s*/.exec(line)?.[0] ?? '').replace(/\t/g, '    ').length;
}

/** A list starting at `lines[start]`: items by indentation, deeper items nested in the one above. */
function list(lines: string[], start: number, depth: number): { node: MdNode; next: number } {
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
    if (indent > base) {
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

export function parseMarkdown(source: string, depth = 0): MdNode[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: MdNode[] = [];
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
      out.push(el('pre', [el('code', [text(code.join('\n'))])]));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      const level = Math.min((heading[1] ?? '#').length, 4);
      out.push(el(`h${level}` as MdTag, inline(heading[2] ?? '', depth + 1)));
      i += 1;
      continue;
    }
    if (RULE.test(line)) {
      out.push(el('hr'));
      i += 1;
      continue;
    }
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i] ?? ''))
        quoted.push(QUOTE.exec(lines[i++] ?? '')?.[1] ?? '');
      out.push(
        el(
          'blockquote',
          depth >= MAX_DEPTH ? [text(quoted.join('\n'))] : parseMarkdown(quoted.join('\n'), depth + 1),
        ),
      );
      continue;
    }
    if (ITEM.test(line)) {
      const found = list(lines, i, depth);
      out.push(found.node);
      i = found.next;
      continue;
    }
    const paragraph: string[] = [];
    while (i < lines.length) {
      const next = lines[i] ?? '';
      if (next.trim() === '' || FENCE.test(next) || HEADING.test(next) || QUOTE.test(next)) break;
      if (paragraph.length > 0 && (ITEM.test(next) || RULE.test(next))) break;
      paragraph.push(next.trim());
      i += 1;
    }
    out.push(el('p', inline(paragraph.join('\n'), depth + 1)));
  }
  return out;
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

/** Model text as DOM nodes: elements from the allow-list and text nodes, never parsed HTML. */
export function renderMarkdown(source: string, doc: Document = document): Node[] {
  return buildNodes<Node>(parseMarkdown(source), {
    createElement: (tag) => doc.createElement(tag),
    createTextNode: (value) => doc.createTextNode(value),
  });
}
