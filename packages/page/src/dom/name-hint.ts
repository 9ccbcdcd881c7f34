/**
 * A stand-in name for a control with no accessible name (an icon-only button, a slider handle): what
 * the markup says about it — a stable id (`#send-mail`), the file name of its image (`trash.png`) or a
 * telling class (`.fa-archive`) — so an agent can tell such controls apart. Empty when nothing tells.
 */
import { stableId } from './selector';
import { styleOf } from './visibility';

/** Classes that say how a box looks or what state it is in, not what it is. */
const STYLING_CLASS =
  /^(is-|has-|js-|ng-|v-|css-|sc-|jsx-|_)|^(active|disabled|hidden|selected|open|show|focus|hover|clearfix|icon|btn|button|clickable|pointer)$|^(ui-(corner|state|widget|helper|priority|front)|pull-|float-|text-|bg-|m[trblxy]?-|p[trblxy]?-)/i;

function fileName(url: string): string {
  if (url === '' || url.startsWith('data:')) return '';
  try {
    const name = new URL(url, document.baseURI).pathname.split('/').pop() ?? '';
    return decodeURIComponent(name).slice(0, 60);
  } catch {
    return '';
  }
}

function imageFile(el: Element): string {
  const img = el.localName === 'img' ? el : el.querySelector('img');
  if (img !== null) {
    const name = fileName(img.getAttribute('src') ?? '');
    if (name !== '') return name;
  }
  const background = /url\(["']?([^"')]+)["']?\)/.exec(styleOf(el).backgroundImage)?.[1];
  return background === undefined ? '' : fileName(background);
}

function tellingClass(el: Element): string {
  let best = '';
  for (const name of Array.from(el.classList)) {
    if (STYLING_CLASS.test(name) || /\d{3,}|[0-9a-f]{6,}/i.test(name)) continue;
    if (name.length > best.length) best = name;
  }
  return best.slice(0, 60);
}

export function nameHint(el: Element): string {
  if (el.id !== '' && stableId(el.id)) return `#${el.id.slice(0, 60)}`;
  const image = imageFile(el);
  if (image !== '') return image;
  const cls = tellingClass(el);
  return cls === '' ? '' : `.${cls}`;
}
