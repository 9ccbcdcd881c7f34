/**
 * What the snapshot outline keeps and how it names things, apart from the walk itself (outline.ts):
 * which elements leave no line, which roles are landmarks, where long text still counts (dialogs,
 * alerts), when a run of text is prose, and when an actionable box is a container of content.
 * docs/snapshot.md explains the choices.
 */
import { clip, collapse, nameOf } from '../dom/aria';
import { nameHint } from '../dom/name-hint';

/** Elements that leave nothing in the outline (images are named where they are actionable). */
export const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'svg',
  'canvas',
  'video',
  'audio',
  'object',
  'embed',
  'map',
  'img',
  'picture',
  'source',
  'track',
]);
export const LANDMARKS = new Set([
  'banner',
  'navigation',
  'main',
  'complementary',
  'contentinfo',
  'region',
  'form',
  'dialog',
  'alertdialog',
  'search',
]);
/** Where text is the point even when long: what a dialog, an alert or a status region says. */
export const SPEAKING_ROLES = new Set(['dialog', 'alertdialog', 'alert', 'status', 'log']);
export const FIELDS = new Set(['input', 'select', 'textarea']);
const RICH = 'h1,h2,h3,h4,h5,h6,p,li,table,pre,blockquote,article,section';
/** A kept text run is cut after this many characters (its links are all kept). */
export const TEXT_MAX = 140;
/** Runs with more characters of their own text than this are prose (see OutlineOptions). */
export const PROSE_MIN = 60;
/** Text between links that only separates them (a | b · c): the run is a list of links. */
export const SEPARATORS = /^[\s|·•/,;>»›–—-]*$/;
/** CJK ideographs, kana and hangul carry about a word each. */
const WIDE = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/g;

/** The length of a text as a reader weighs it: a CJK character counts twice. */
export function weight(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}

/** A dialog, an alert, a status region, an output: what it says is kept however long. */
export function speaks(el: Element, role: string): boolean {
  if (SPEAKING_ROLES.has(role) || el.localName === 'output') return true;
  const live = el.getAttribute('aria-live');
  return live === 'polite' || live === 'assertive';
}

/** Content that would be lost in a one-line name: headings, paragraphs, lists, tables, long text. */
export function richContent(el: Element): boolean {
  return el.querySelector(RICH) !== null || collapse(el.textContent ?? '').length > 80;
}

/** A container's name: what labels it, else what its markup tells, never its whole text. */
export function labelOf(el: Element): string {
  if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) return nameOf(el, 80);
  return clip(collapse(el.getAttribute('title') ?? ''), 80) || nameHint(el);
}

export function hasBox(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}
