/**
 * Text that is rendered yet that a person cannot see. The reads already skip what the browser does not
 * paint (display:none, visibility:hidden, opacity:0); a page can still hide words from the person
 * watching while leaving them in the DOM for an agent to read: text pushed off the page, clipped
 * away (overflow on a tiny box, `clip`, `clip-path`), shrunk to nothing (`font-size:0`,
 * `transform:scale(0)`), transparent or the colour of what lies behind it, collapsed (a closed
 * `<details>`), or covered by another box. `UnseenText` decides per text node, with what it learns about
 * an element kept for the rest of the read, and counts the runs of text it left out.
 *
 * Names of actionable elements do not go through this: a visually hidden label (`sr-only`) is how an
 * icon-only button gets its accessible name, and that name is what identifies the control. See
 * docs/snapshot.md and docs/security.md §5.
 */
import { intersect, isEmpty, type Rect } from './clip';
import { styleOf } from './visibility';

export type UnseenReason =
  | 'collapsed'
  | 'too small'
  | 'off the page'
  | 'clipped'
  | 'transparent'
  | 'same colour as its background'
  | 'covered';

/** Rendered glyphs lower than this (in CSS pixels) cannot be read. */
const MIN_TEXT_HEIGHT = 4;
/**
 * Text whose colour differs from what lies behind it by at most this much on every channel (of 255)
 * cannot be seen: #f4f4f4 on white is hidden, light grey (#ccc) or yellow on white is not.
 */
const SAME_COLOUR = 12;
/** Text drawn at less than this alpha (colour alpha times opacities) cannot be seen. */
const MIN_ALPHA = 0.1;
/** A box painted at least this opaque hides what lies under it. */
const OPAQUE = 0.9;
/** Hit tests (elementFromPoint) one read may spend on covered text: they bound its cost. */
export const MAX_HIT_TESTS = 400;

const EVERYWHERE: Rect = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
/** Elements that paint a picture: what lies under them cannot be told by colour alone. */
const PICTURES = new Set(['img', 'picture', 'video', 'canvas', 'svg', 'iframe', 'object', 'embed']);

interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

function parseColour(value: string): Rgba | null {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(value);
  if (m === null) return null;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
  return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]), a: alpha };
}

/** The parent in the composed tree within one document (shadow roots are crossed, frames are not). */
function parentIn(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const parent = el.parentNode;
  if (parent !== null && parent.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in parent)
    return (parent as ShadowRoot).host;
  return null;
}

function containsComposed(outer: Element, inner: Element): boolean {
  for (let node: Element | null = inner; node !== null; node = parentIn(node))
    if (node === outer) return true;
  return false;
}

function escapes(position: string, ancestor: CSSStyleDeclaration): boolean {
  if (position === 'fixed') return ancestor.transform === 'none' && ancestor.filter === 'none';
  return position === 'absolute' && ancestor.position === 'static' && ancestor.transform === 'none';
}

const px = (value: string | undefined, size: number): number => {
  if (value === undefined || value === 'auto') return NaN;
  return value.endsWith('%') ? (parseFloat(value) / 100) * size : parseFloat(value);
};

/** The region `clip: rect(…)` and a few emptying `clip-path` shapes leave of an element. */
function shapeClip(el: Element, style: CSSStyleDeclaration): Rect | null {
  let region: Rect | null = null;
  const box = (): DOMRect => el.getBoundingClientRect();
  const clip = /^rect\(([^)]*)\)$/.exec(style.clip);
  if (clip?.[1] !== undefined && (style.position === 'absolute' || style.position === 'fixed')) {
    const [top, right, bottom, left] = clip[1].split(/[\s,]+/);
    const b = box();
    const n = (v: string | undefined, fallback: number): number => {
      const value = px(v, 0);
      return Number.isNaN(value) ? fallback : value;
    };
    region = {
      left: b.left + n(left, 0),
      top: b.top + n(top, 0),
      right: b.left + n(right, b.width),
      bottom: b.top + n(bottom, b.height),
    };
  }
  const path = style.clipPath;
  if (path !== 'none' && path !== '') {
    const inset = /^inset\(([^)]*?)(?:\s+round\b[^)]*)?\)/.exec(path);
    if (inset?.[1] !== undefined) {
      const b = box();
      const parts = inset[1].trim().split(/\s+/);
      const [top, right = top, bottom = top, left = right] = parts;
      const shape = {
        left: b.left + px(left, b.width),
        top: b.top + px(top, b.height),
        right: b.right - px(right, b.width),
        bottom: b.bottom - px(bottom, b.height),
      };
      if ([shape.left, shape.top, shape.right, shape.bottom].every((v) => !Number.isNaN(v)))
        region = region === null ? shape : intersect(region, shape);
    } else if (/^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(path)) {
      region = { left: 0, top: 0, right: 0, bottom: 0 };
    } else if (path.startsWith('polygon(')) {
      const points = new Set(
        (/^polygon\(([^)]*)\)/.exec(path)?.[1] ?? '')
          .split(',')
          .map((p) => p.trim())
          .filter((p) => !/^(nonzero|evenodd)$/.test(p)),
      );
      if (points.size <= 1) region = { left: 0, top: 0, right: 0, bottom: 0 };
    }
  }
  return region;
}

/** The region an element's overflow leaves for its content: its padding box, or all it scrolls through. */
function overflowRegion(el: Element, style: CSSStyleDeclaration): Rect | null {
  const clipsX = style.overflowX !== 'visible';
  const clipsY = style.overflowY !== 'visible';
  if (!clipsX && !clipsY) return null;
  const rect = el.getBoundingClientRect();
  const left = rect.left + el.clientLeft;
  const top = rect.top + el.clientTop;
  const scrolls = (v: string): boolean => v === 'auto' || v === 'scroll';
  const x = scrolls(style.overflowX)
    ? { left: left - el.scrollLeft, right: left - el.scrollLeft + Math.max(el.scrollWidth, el.clientWidth) }
    : { left, right: left + el.clientWidth };
  const y = scrolls(style.overflowY)
    ? { top: top - el.scrollTop, bottom: top - el.scrollTop + Math.max(el.scrollHeight, el.clientHeight) }
    : { top, bottom: top + el.clientHeight };
  return {
    left: clipsX ? x.left : -Infinity,
    right: clipsX ? x.right : Infinity,
    top: clipsY ? y.top : -Infinity,
    bottom: clipsY ? y.bottom : Infinity,
  };
}

/** One read's judge of which text nodes a person can see. */
export class UnseenText {
  /** Runs of text left out (consecutive hidden text nodes count once). */
  blocks = 0;
  /** Hit tests spent on covered text. */
  hitTests = 0;
  private lastHidden = false;
  private range: Range | null = null;
  private readonly regions = {
    static: new Map<Element, Rect>(),
    absolute: new Map<Element, Rect>(),
    fixed: new Map<Element, Rect>(),
  };
  private readonly pages = new Map<Document, Rect>();
  private readonly textClips = new Map<Element, boolean>();
  private readonly backgrounds = new Map<Element, Rgba | null>();
  private readonly alphas = new Map<Element, number>();
  private readonly colourVerdicts = new Map<Element, UnseenReason | null>();
  private readonly backdrops = new Map<Element, boolean>();
  private readonly skipped = new Map<Element, boolean>();

  /** Whether `text` can be seen; hidden text with words in it is counted. */
  shows(text: Text): boolean {
    const value = text.nodeValue ?? '';
    if (value.trim() === '') return true;
    const hidden = this.reason(text) !== null;
    if (hidden && !this.lastHidden) this.blocks++;
    this.lastHidden = hidden;
    return !hidden;
  }

  /** The same judgement, without counting: for names built from text (headings). */
  readonly judge = (text: Text): boolean => this.reason(text) === null;

  /** Why a person cannot see `text`, or null when they can. */
  reason(text: Text): UnseenReason | null {
    const el = text.parentElement ?? (text.parentNode as ShadowRoot | null)?.host ?? null;
    if (el === null) return null;
    const doc = text.ownerDocument;
    const view = doc.defaultView;
    if (view === null) return null;
    if (this.collapsed(el)) return 'collapsed';
    const range = this.range?.startContainer.ownerDocument === doc ? this.range : doc.createRange();
    this.range = range;
    range.selectNodeContents(text);
    const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 || r.height > 0);
    if (rects.length === 0) return 'collapsed';
    let tallest = 0;
    let box: Rect = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const r of rects) {
      tallest = Math.max(tallest, r.height);
      box = {
        left: Math.min(box.left, r.left),
        top: Math.min(box.top, r.top),
        right: Math.max(box.right, r.right),
        bottom: Math.max(box.bottom, r.bottom),
      };
    }
    if (tallest < MIN_TEXT_HEIGHT || box.right - box.left < 1) return 'too small';
    if (isEmpty(intersect(box, this.pageOf(doc, view)))) return 'off the page';
    if (isEmpty(intersect(box, this.regionFrom(el, 'static')))) return 'clipped';
    const colour = this.colourVerdict(el);
    if (colour !== null) return colour;
    return this.covered(text, el, rects[0], view) ? 'covered' : null;
  }

  /**
   * Why a person cannot see a control or link itself, or null when they can: its box under 4 px either
   * way or wholly off the page, or every word of it (the first three text nodes) transparent or the
   * colour of its background. Visually hidden words inside a visible control (an icon button's
   * screen-reader label) do not count: that label is how the control is named. Form fields are not
   * judged: a custom checkbox hides its input and is operated through its label.
   */
  controlReason(el: Element): UnseenReason | null {
    const view = el.ownerDocument.defaultView;
    if (view === null) return null;
    const b = el.getBoundingClientRect();
    if (b.width < MIN_TEXT_HEIGHT || b.height < MIN_TEXT_HEIGHT) return 'too small';
    if (isEmpty(intersect(b, this.pageOf(el.ownerDocument, view)))) return 'off the page';
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let words = 0;
    let verdict: UnseenReason | null = null;
    for (let node = walker.nextNode(); node !== null && words < 3; node = walker.nextNode()) {
      if ((node.nodeValue ?? '').trim() === '' || node.parentElement === null) continue;
      words++;
      const colour = this.colourVerdict(node.parentElement);
      if (colour === null) return null;
      verdict = colour;
    }
    return verdict;
  }

  /** Content the browser skips: in a closed `<details>`, under `content-visibility:hidden` (`hidden=until-found`). */
  private collapsed(el: Element): boolean {
    const known = this.skipped.get(el);
    if (known !== undefined) return known;
    const parent = parentIn(el);
    const skipped =
      styleOf(el).contentVisibility === 'hidden' ||
      (parent !== null &&
        (this.collapsed(parent) ||
          (parent.localName === 'details' &&
            !parent.hasAttribute('open') &&
            el !== parent.querySelector(':scope > summary'))));
    this.skipped.set(el, skipped);
    return skipped;
  }

  /** The whole page of `doc` (all it scrolls through), in its viewport's coordinates. */
  private pageOf(doc: Document, view: Window): Rect {
    const known = this.pages.get(doc);
    if (known !== undefined) return known;
    const page = doc.scrollingElement ?? doc.documentElement;
    const width = Math.max(page.scrollWidth, view.innerWidth);
    // A right-to-left page overflows, and scrolls, to the left of its initial viewport.
    const left = styleOf(page).direction === 'rtl' ? view.innerWidth - width : 0;
    const rect: Rect = {
      left: left - view.scrollX,
      top: -view.scrollY,
      right: left + width - view.scrollX,
      bottom: Math.max(page.scrollHeight, view.innerHeight) - view.scrollY,
    };
    this.pages.set(doc, rect);
    return rect;
  }

  /**
   * The region of the viewport where a box positioned `position` inside `node` can show, after the
   * clipping of `node` and its ancestors: an absolutely positioned box escapes the overflow of static
   * ancestors, a fixed one that of all of them; `clip` and `clip-path` cut everything below them.
   * Text is in the normal flow of its parent element (`static`).
   */
  private regionFrom(node: Element, position: string): Rect {
    const kind = position === 'absolute' || position === 'fixed' ? position : 'static';
    const memo = this.regions[kind];
    const known = memo.get(node);
    if (known !== undefined) return known;
    let region = EVERYWHERE;
    // The root's and body's overflow belong to the viewport (checked as the page's extent).
    if (node.localName !== 'body' && node.localName !== 'html') {
      const style = styleOf(node);
      const parent = parentIn(node);
      const escaped = escapes(kind, style);
      if (parent !== null) region = this.regionFrom(parent, escaped ? kind : style.position);
      const shape = shapeClip(node, style);
      if (shape !== null) region = intersect(region, shape);
      const overflow = escaped ? null : overflowRegion(node, style);
      if (overflow !== null) region = intersect(region, overflow);
    }
    memo.set(node, region);
    return region;
  }

  /** Product of the opacities from `el` up. */
  private alphaOf(el: Element): number {
    const known = this.alphas.get(el);
    if (known !== undefined) return known;
    const parent = parentIn(el);
    const own = parseFloat(styleOf(el).opacity);
    const alpha = (Number.isNaN(own) ? 1 : own) * (parent === null ? 1 : this.alphaOf(parent));
    this.alphas.set(el, alpha);
    return alpha;
  }

  /** Transparent text, or text in the colour of the background it sits on, in `el`. */
  private colourVerdict(el: Element): UnseenReason | null {
    const known = this.colourVerdicts.get(el);
    if (known !== undefined) return known;
    const verdict = this.judgeColour(el);
    this.colourVerdicts.set(el, verdict);
    return verdict;
  }

  private judgeColour(el: Element): UnseenReason | null {
    const style = styleOf(el);
    // A shadow or an outline draws the letters whatever their fill.
    if (style.textShadow !== 'none' || parseFloat(style.webkitTextStrokeWidth) > 0) return null;
    const fill = parseColour(style.webkitTextFillColor || style.color);
    if (fill === null) return null;
    // Gradient text: a background clipped to the letters, the fill left transparent.
    if (this.paintedByBackground(el)) return null;
    if (fill.a * this.alphaOf(el) < MIN_ALPHA) return 'transparent';
    const behind = this.backgroundOf(el);
    if (behind === null) return null;
    const seen: Rgba = {
      r: fill.r * fill.a + behind.r * (1 - fill.a),
      g: fill.g * fill.a + behind.g * (1 - fill.a),
      b: fill.b * fill.a + behind.b * (1 - fill.a),
      a: 1,
    };
    const difference = Math.max(
      Math.abs(seen.r - behind.r),
      Math.abs(seen.g - behind.g),
      Math.abs(seen.b - behind.b),
    );
    return difference <= SAME_COLOUR ? 'same colour as its background' : null;
  }

  /** Whether a background clipped to the letters (`background-clip:text`) paints `el`'s text. */
  private paintedByBackground(el: Element): boolean {
    const known = this.textClips.get(el);
    if (known !== undefined) return known;
    const style = styleOf(el);
    const parent = parentIn(el);
    const clipped =
      style.backgroundClip === 'text' ||
      style.webkitBackgroundClip === 'text' ||
      (parent !== null && this.paintedByBackground(parent));
    this.textClips.set(el, clipped);
    return clipped;
  }

  /**
   * The solid colour behind `el`'s text: the first ancestor's opaque background, or the page's white
   * canvas. Null when it cannot be told by colours: a background image or a half-transparent layer on
   * the way, a positioned picture beside the text, or a dark colour scheme.
   */
  private backgroundOf(el: Element): Rgba | null {
    const known = this.backgrounds.get(el);
    if (known !== undefined) return known;
    const style = styleOf(el);
    const parent = parentIn(el);
    const colour = parseColour(style.backgroundColor);
    let found: Rgba | null;
    if (style.backgroundImage !== 'none' || this.hasBackdrop(el)) found = null;
    else if (colour !== null && colour.a > 0) found = colour.a >= OPAQUE ? colour : null;
    else if (parent !== null && el.localName !== 'html') found = this.backgroundOf(parent);
    else if (/dark/.test(styleOf(el.ownerDocument.documentElement).colorScheme)) found = null;
    else found = { r: 255, g: 255, b: 255, a: 1 };
    this.backgrounds.set(el, found);
    return found;
  }

  /** Whether `node` holds a positioned picture (a hero image, a video) its other content may sit on. */
  private hasBackdrop(node: Element): boolean {
    const known = this.backdrops.get(node);
    if (known !== undefined) return known;
    let found = false;
    for (const child of Array.from(node.children)) {
      const style = styleOf(child);
      if (style.position !== 'absolute' && style.position !== 'fixed' && style.zIndex === 'auto') continue;
      if (
        PICTURES.has(child.localName) ||
        style.backgroundImage !== 'none' ||
        child.querySelector('img, picture, video, canvas, svg, iframe') !== null
      ) {
        found = true;
        break;
      }
    }
    this.backdrops.set(node, found);
    return found;
  }

  /**
   * Whether another box is painted over the text: checked where it is in the viewport (a hit test
   * sees nothing else), at most MAX_HIT_TESTS times per read. Only an opaque box that scrolls with the
   * page counts: a transparent overlay (a card's stretched link) hides nothing, and a fixed header or
   * banner covers text only until the page is scrolled.
   */
  private covered(text: Text, el: Element, first: DOMRect | undefined, view: Window): boolean {
    if (first === undefined || this.hitTests >= MAX_HIT_TESTS) return false;
    const points = [
      { x: first.left + first.width / 2, y: first.top + first.height / 2 },
      { x: first.left + Math.min(4, first.width / 4), y: first.top + first.height / 2 },
    ];
    const root = text.getRootNode() as Document | ShadowRoot;
    for (const p of points) {
      if (p.x < 0 || p.y < 0 || p.x >= view.innerWidth || p.y >= view.innerHeight) return false;
      if (this.hitTests >= MAX_HIT_TESTS) return false;
      this.hitTests++;
      const hit = root.elementFromPoint(p.x, p.y);
      if (hit === null || containsComposed(el, hit) || containsComposed(hit, el)) return false;
      if (!this.paintsOver(hit, el)) return false;
    }
    return true;
  }

  /**
   * Whether `hit`, or a box around it that is not around `el`, paints an opaque surface: a solid
   * background colour. Pictures do not count: an image (a lazy-loading placeholder stretched over a
   * header), a background image or an SVG may be transparent, which only pixels would tell.
   */
  private paintsOver(hit: Element, el: Element): boolean {
    let opaque = false;
    for (
      let node: Element | null = hit;
      node !== null && !containsComposed(node, el);
      node = parentIn(node)
    ) {
      const style = styleOf(node);
      if (style.position === 'fixed' || style.position === 'sticky') return false;
      if (opaque) continue;
      const bg = parseColour(style.backgroundColor);
      opaque = bg !== null && bg.a >= OPAQUE && this.alphaOf(node) >= OPAQUE;
    }
    return opaque;
  }
}
