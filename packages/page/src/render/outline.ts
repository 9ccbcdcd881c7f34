/**
 * The walk behind `snapshot`: one short line per landmark, heading, text run and actionable element,
 * indented by nesting. Wrapper elements leave no line; inline runs of text and links become one
 * `text:` line; long runs (prose) are left out unless asked for, but every link in them is kept, so
 * each actionable element stays addressable. Actionable lines carry a placeholder for their index in
 * `refs`. What is kept and why: outline-rules.ts and docs/snapshot.md.
 */
import { LONG_TEXT_MAX, LONG_TEXT_RUNS } from '@bproxy/protocol/plain';
import { clip, collapse, headingLevel, nameOf, roleOf, subtreeText } from '../dom/aria';
import { clipOf, isEmpty } from '../dom/clip';
import { SNAPSHOT_FRAME_CLOSE, SNAPSHOT_FRAME_OPEN } from '@bproxy/protocol/plain';
import {
  flatChildren,
  frameDocument,
  frameShown,
  isElement,
  isFrame,
  type FrameReport,
} from '../dom/flat-tree';
import { actionableKind, type ActionableKind } from '../dom/interactive';
import { ariaHiddenWords, leftOutOf } from '../dom/aria-hidden-words';
import { aiFlag, ariaHiddenFlag, hiddenFlag, LONG_LABEL } from '../dom/page-flags';
import type { UnseenText } from '../dom/unseen';
import { styleOf } from '../dom/visibility';
import { controlLine, nameOrHint, quote } from './describe-control';
import { LINK_NAME_MAX, mergeLinkRuns } from './link-runs';
import type { OutlineLine } from './outline-line';
import {
  FIELDS,
  hasBox,
  labelOf,
  LANDMARKS,
  PROSE_MIN,
  richContent,
  SEPARATORS,
  SKIP,
  speaks,
  SPEAKING_ROLES,
  TEXT_MAX,
  weight,
} from './outline-rules';
import { placeholder } from './placeholder';

export { placeholder };

export type { OutlineLine };
export interface OutlineRef {
  el: Element;
  kind: 'el' | 'ln';
}
export interface Outline {
  lines: OutlineLine[];
  refs: OutlineRef[];
  /** Long text runs left out (options.prose false): how many, and their characters. */
  omitted: { runs: number; chars: number };
  /** The long runs left out, when options.longText asked for them (at most LONG_TEXT_RUNS). */
  longText: string[];
  /** Runs of text left out because a person could not see them (see UnseenText). */
  hiddenBlocks: number;
}

/** A run of inline content: text, and the links (or clickable words) inside it. */
type Segment = { text: string } | { ref: number; name: string; word: 'link' | 'clickable'; flags: string };
type Mode = 'full' | 'controls';

export interface OutlineOptions {
  /**
   * Keep long text runs (prose). Off by default: a run with more than PROSE_MIN characters of its own
   * text is left out, its links kept, and counted in `omitted`; `text`, `contains` or a target bring
   * it back.
   */
  prose: boolean;
  /** Also collect the long runs left out, whole up to LONG_TEXT_MAX, in `longText` (for a diff's new text). */
  longText?: boolean;
}

class OutlineBuilder {
  readonly lines: OutlineLine[] = [];
  readonly refs: OutlineRef[] = [];
  readonly omitted = { runs: 0, chars: 0 };
  readonly longText: string[] = [];
  private run: Segment[] = [];
  /** Inside a dialog, alert or status region, where long text is kept. */
  private speaking = 0;

  constructor(
    private readonly frames: FrameReport,
    private readonly options: OutlineOptions,
    readonly unseen: UnseenText,
  ) {}

  private emit(depth: number, text: string, parent: number, link?: OutlineLine['link']): number {
    this.lines.push(link === undefined ? { depth, text, parent } : { depth, text, parent, link });
    return this.lines.length - 1;
  }

  private runHasContent(): boolean {
    return this.run.some((s) => 'ref' in s || s.text.trim() !== '');
  }

  /**
   * Links with nothing but space between them: one line each, grouped later by mergeLinkRuns. A flagged
   * link keeps a line of its own, its flags after its handle.
   */
  private linkLines(links: Extract<Segment, { ref: number }>[], depth: number, parent: number): void {
    for (const link of links) {
      const named = link.name ? `${link.word} ${quote(link.name)}` : link.word;
      const text = `${named} ${placeholder(link.ref)}${link.flags}`;
      this.emit(depth, text, parent, link.flags === '' ? { ref: link.ref, name: link.name } : undefined);
    }
  }

  /**
   * The flags of a control or link (page-flags.ts): hidden from people (not a form field, nor one its
   * scrolling container cuts away: that is `clipped`), an `aria-label` stuffed past LONG_LABEL
   * characters, words people see that its name leaves out (under aria-hidden), and words that address
   * an AI assistant in what its line shows.
   */
  private flagsOf(el: Element, shown: string, clipped: boolean): string {
    const words = this.ariaHiddenWordsOf(el, shown);
    let flags = words === '' ? '' : ` ${ariaHiddenFlag(words)}`;
    if (!clipped && !FIELDS.has(el.localName)) {
      const reason = this.unseen.controlReason(el);
      if (reason !== null) flags += ` ${hiddenFlag(reason)}`;
    }
    if ((el.getAttribute('aria-label') ?? '').length > LONG_LABEL) flags += ` ${hiddenFlag('long label')}`;
    return flags + aiFlag(words === '' ? shown : `${shown}\n${words}`);
  }

  /** The words people see in `el` that are aria-hidden and not in `line` (its name), or ''. */
  private ariaHiddenWordsOf(el: Element, line: string): string {
    const shown = ariaHiddenWords(el, this.unseen.judge);
    return shown !== '' && leftOutOf(line, shown) ? shown : '';
  }

  flush(depth: number, parent: number): void {
    const run = this.run;
    this.run = [];
    const links = run.filter((s): s is Extract<Segment, { ref: number }> => 'ref' in s);
    const plain = collapse(run.map((s) => ('text' in s ? s.text : ' ')).join(''));
    // Links with only separators between them (a | b · c) are a list of links, not text.
    if (SEPARATORS.test(plain)) {
      this.linkLines(links, depth, parent);
      return;
    }
    if (weight(plain) > PROSE_MIN && !this.options.prose && this.speaking === 0) {
      this.omitted.runs++;
      this.omitted.chars += plain.length;
      if (this.options.longText === true && this.longText.length < LONG_TEXT_RUNS)
        this.longText.push(clip(plain, LONG_TEXT_MAX) + aiFlag(plain));
      this.linkLines(links, depth, parent);
      return;
    }
    let out = '';
    let budget = TEXT_MAX;
    let cut = false;
    for (const seg of run) {
      if ('ref' in seg) {
        out += ` [${clip(seg.name, LINK_NAME_MAX)}]${placeholder(seg.ref)}${seg.flags} `;
        continue;
      }
      if (cut) continue;
      const text = seg.text.replace(/\s+/g, ' ');
      if (text.length > budget) {
        out += `${text.slice(0, budget).trimEnd()}… `;
        cut = true;
      } else {
        out += text;
        budget -= text.length;
      }
    }
    this.emit(depth, `text: ${collapse(out)}${aiFlag(plain)}`, parent);
  }

  visit(node: Node, depth: number, parent: number, mode: Mode, textVisible: boolean): void {
    if (node.nodeType === Node.TEXT_NODE) {
      if (mode === 'full' && textVisible && this.unseen.shows(node as Text))
        this.run.push({ text: node.nodeValue ?? '' });
      return;
    }
    if (!isElement(node)) return;
    const el = node;
    const tag = el.localName;
    if (SKIP.has(tag)) return;
    if (tag === 'br') {
      if (mode === 'full') this.flush(depth, parent);
      return;
    }
    const style = styleOf(el);
    if (style.display === 'none' || style.opacity === '0') return;
    const visible = style.visibility === 'visible';
    const display = style.display;
    const block = !(display.startsWith('inline') || display === 'contents' || display === 'table-cell');

    const kind = visible ? actionableKind(el, style) : null;
    if (kind !== null && hasBox(el)) {
      this.control(el, kind, depth, parent, mode, block);
      return;
    }
    if (mode === 'controls' || (tag === 'label' && (el as HTMLLabelElement).control)) {
      this.children(el, depth, parent, 'controls', visible);
      return;
    }
    if (isFrame(el)) {
      const label = `iframe${el.getAttribute('title') ? ` ${quote(el.getAttribute('title') ?? '')}` : ''}`;
      // A cross-origin frame on show: its line carries a slot the driver fills with the frame's outline.
      if (frameDocument(el) === null && visible && frameShown(el)) {
        this.flush(depth, parent);
        this.emit(
          depth,
          `${label} ${SNAPSHOT_FRAME_OPEN}${this.frames.add(el)}${SNAPSHOT_FRAME_CLOSE}`,
          parent,
        );
        return;
      }
      this.container(el, depth, parent, label);
      return;
    }
    const role = roleOf(el);
    if (visible && role === 'heading') {
      this.heading(el, depth, parent);
      return;
    }
    if (LANDMARKS.has(role) && (role !== 'region' || el.localName === 'section' || el.hasAttribute('role'))) {
      const name =
        role === 'form' ||
        role === 'dialog' ||
        role === 'region' ||
        el.hasAttribute('aria-label') ||
        el.hasAttribute('aria-labelledby')
          ? nameOf(el, 60)
          : '';
      this.container(el, depth, parent, name ? `${role} ${quote(name)}` : role, SPEAKING_ROLES.has(role));
      return;
    }
    if (block && speaks(el, role)) {
      this.speakingRegion(el, depth, parent, mode, visible);
      return;
    }
    if (display === 'table-cell' && this.runHasContent()) this.run.push({ text: ' | ' });
    if (block) this.flush(depth, parent);
    else if (display.startsWith('inline-')) this.run.push({ text: ' ' });
    this.children(el, depth, parent, mode, visible);
    if (block) this.flush(depth, parent);
    else if (display.startsWith('inline-')) this.run.push({ text: ' ' });
  }

  private children(el: Element, depth: number, parent: number, mode: Mode, textVisible: boolean): void {
    for (const child of flatChildren(el, this.frames)) this.visit(child, depth, parent, mode, textVisible);
  }

  private control(
    el: Element,
    kind: ActionableKind,
    depth: number,
    parent: number,
    mode: Mode,
    block: boolean,
  ): void {
    const role = roleOf(el);
    const link = role === 'link';
    const ref = this.refs.push({ el, kind: link && el.hasAttribute('href') ? 'ln' : 'el' }) - 1;
    // Cut away by an overflow ancestor (a scrolled list, a collapsed panel): said on its own line.
    const clipped = isEmpty(clipOf(el).rect);
    // Links, and clickable words in a line of text (an href-less Prev), stay in their line as [name]ref.
    const inText = !clipped && (link || (role === 'generic' && kind === 'pointer' && !block));
    if (inText && mode === 'full') {
      if (block) this.flush(depth, parent);
      const name = nameOrHint(el, 80);
      const flags = this.flagsOf(el, name, clipped);
      this.run.push({ ref, name, word: link ? 'link' : 'clickable', flags });
      if (block) this.flush(depth, parent);
      return;
    }
    this.flush(depth, parent);
    // A box that is actionable only by how it behaves and holds a page's worth of content (a focusable
    // scroll region, a clickable card) is a container: named by its label, its content shown in full.
    const container = kind !== 'control' && richContent(el);
    const linkMeta = link ? { ref, name: nameOrHint(el, 80), word: 'link' as const } : undefined;
    const described = controlLine(el, kind, container ? labelOf(el) : undefined);
    const shown = `${described}${clipped ? ' clipped' : ''}`;
    const flags = this.flagsOf(el, described, clipped);
    const meta = flags === '' ? linkMeta : undefined;
    const line = this.emit(depth, `${shown} ${placeholder(ref)}${flags}`, parent, meta);
    if (container) {
      this.children(el, depth + 1, line, 'full', true);
      this.flush(depth + 1, line);
    } else if (!FIELDS.has(el.localName)) this.children(el, depth + 1, line, 'controls', true);
  }

  private heading(el: Element, depth: number, parent: number): void {
    this.flush(depth, parent);
    // A heading is read, not acted on: when words in it are hidden from people, it is named by the
    // words they see (none: it leaves no line) and counted; otherwise by its accessible name.
    let dropped = false;
    const seen = subtreeText(el, 100, undefined, (text) => {
      const shown = this.unseen.judge(text);
      if (!shown && (text.nodeValue ?? '').trim() !== '') dropped = true;
      return shown;
    });
    if (dropped) this.unseen.blocks++;
    const name = dropped ? seen : nameOf(el, 100);
    const level = headingLevel(el);
    // Words people see under aria-hidden stay on the line, flagged, even when the name is empty.
    const words = this.ariaHiddenWordsOf(el, name);
    const hiddenWords = words === '' ? '' : ` ${ariaHiddenFlag(words)}`;
    const named = name === '' && words !== '' ? '' : ` ${quote(name)}`;
    const line = this.emit(
      depth,
      `${level === undefined ? 'heading' : `h${level}`}${named}${hiddenWords}${aiFlag(`${name}\n${words}`)}`,
      parent,
    );
    this.children(el, depth + 1, line, 'controls', true);
    const only = this.lines[line + 1];
    const headingLine = this.lines[line];
    // A heading that is one link (the usual article title) becomes one line carrying the link's ref.
    if (
      this.lines.length === line + 2 &&
      only?.link &&
      headingLine &&
      (only.link.name === name || only.link.name === '')
    ) {
      this.lines.pop();
      headingLine.text += ` ${placeholder(only.link.ref)}`;
    }
    if (name === '' && hiddenWords === '' && this.lines.length === line + 1) this.lines.pop();
  }

  private container(el: Element, depth: number, parent: number, label: string, speaking = false): void {
    this.flush(depth, parent);
    const line = this.emit(depth, label, parent);
    if (speaking) this.speaking++;
    try {
      this.children(el, depth + 1, line, 'full', styleOf(el).visibility === 'visible');
      this.flush(depth + 1, line);
    } finally {
      if (speaking) this.speaking--;
    }
    if (this.lines.length === line + 1) this.lines.pop();
  }

  /** Text inside a dialog, an alert, a status region or an output is kept even when long. */
  private speakingRegion(el: Element, depth: number, parent: number, mode: Mode, visible: boolean): void {
    this.flush(depth, parent);
    this.speaking++;
    try {
      this.children(el, depth, parent, mode, visible);
      this.flush(depth, parent);
    } finally {
      this.speaking--;
    }
  }
}

export function buildOutline(
  root: Node,
  frames: FrameReport,
  options: OutlineOptions,
  unseen: UnseenText,
): Outline {
  const builder = new OutlineBuilder(frames, options, unseen);
  builder.visit(root, 0, -1, 'full', true);
  builder.flush(0, -1);
  return {
    lines: mergeLinkRuns(builder.lines),
    refs: builder.refs,
    omitted: builder.omitted,
    longText: builder.longText,
    hiddenBlocks: unseen.blocks,
  };
}
