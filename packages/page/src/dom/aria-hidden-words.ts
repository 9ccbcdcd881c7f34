/**
 * Words a person sees on a control, link or heading that its accessible name leaves out because they
 * sit under `aria-hidden="true"`: the name then comes from somewhere a person does not look (a
 * visually hidden label, an `aria-label`, a page title), and the snapshot line shows words people do
 * not see while the words they do see are missing from it. The line is flagged with what is shown
 * (page-flags.ts `ariaHiddenFlag`), so a model reading the snapshot knows both.
 *
 * Not counted: words the name contains anyway ("Next" named "Next page", "Mon" named "Monday"),
 * signs without letters (×, ★, prices), icon-font ligatures (`shopping_cart` drawn as a cart), and
 * text hidden from people as well (UnseenText). A control inside an `aria-hidden="true"` region is
 * named by its own words, which a person sees: nothing differs, no flag.
 */
import { collapse } from './aria';
import { styleOf } from './visibility';

/** A word: two letters or more in a row. */
const WORD = /\p{L}{2,}/gu;
/** Font families that draw ligatures as pictures (Material Icons, Font Awesome, Symbols). */
const ICON_FONT = /icon|symbol|material|glyph|awesome/i;
/** Text nodes looked at per element: they bound the cost on large controls. */
const MAX_TEXTS = 6;

/**
 * The words people see in `el` that are under `aria-hidden="true"` inside it (or on it), whitespace
 * collapsed; '' when there are none. `judge` says whether a person can see a text node.
 */
export function ariaHiddenWords(el: Element, judge: (text: Text) => boolean): string {
  if (el.getAttribute('aria-hidden') !== 'true' && el.querySelector('[aria-hidden="true"]') === null)
    return '';
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let out = '';
  let looked = 0;
  for (let node = walker.nextNode(); node !== null && looked < MAX_TEXTS; node = walker.nextNode()) {
    const parent = node.parentElement;
    const value = node.nodeValue ?? '';
    if (parent === null || value.match(WORD) === null) continue;
    const hider = parent.closest('[aria-hidden="true"]');
    if (hider === null || !el.contains(hider)) continue;
    looked++;
    if (ICON_FONT.test(styleOf(parent).fontFamily)) continue;
    if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    if (!judge(node as Text)) continue;
    out += ` ${value}`;
  }
  return collapse(out);
}

/** Whether `shown` has a word that `line` (what the snapshot line says) does not contain. */
export function leftOutOf(line: string, shown: string): boolean {
  const said = line.toLowerCase();
  return (shown.toLowerCase().match(WORD) ?? []).some((word) => !said.includes(word));
}
