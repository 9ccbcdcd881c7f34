/**
 * Key names as agents write them (Enter, Tab, ArrowDown, a, Control+A) turned into KeyboardEvent
 * fields, including the legacy keyCode/which/charCode that older widget libraries still read (jQuery
 * UI's slider, menu and autocomplete switch on keyCode). Chromium takes them in the event's init.
 */
import { PageError } from '../errors';

export interface KeyStroke {
  readonly key: string;
  readonly code: string;
  readonly ctrlKey: boolean;
  readonly shiftKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
  /** Whether the key produces a character (and so a keypress event and text). */
  readonly printable: boolean;
}

/** Windows virtual key codes (what keyCode reports on keydown and keyup) of the named keys. */
const KEY_CODES: Readonly<Record<string, number>> = {
  Enter: 13,
  Tab: 9,
  Escape: 27,
  Backspace: 8,
  Delete: 46,
  Insert: 45,
  Home: 36,
  End: 35,
  PageUp: 33,
  PageDown: 34,
  ArrowLeft: 37,
  ArrowUp: 38,
  ArrowRight: 39,
  ArrowDown: 40,
  ' ': 32,
};
const PUNCTUATION_CODES: Readonly<Record<string, number>> = {
  Semicolon: 186,
  Equal: 187,
  Comma: 188,
  Minus: 189,
  Period: 190,
  Slash: 191,
  Backquote: 192,
  BracketLeft: 219,
  Backslash: 220,
  BracketRight: 221,
  Quote: 222,
};

/** The keyCode of keydown/keyup on a US layout: letters and digits by their upper-case character. */
function legacyKeyCode(stroke: KeyStroke): number {
  const named = KEY_CODES[stroke.key];
  if (named !== undefined) return named;
  const fn = /^F([1-9]|1[0-2])$/.exec(stroke.key)?.[1];
  if (fn !== undefined) return 111 + Number(fn);
  if (/^Key[A-Z]$|^Digit[0-9]$/.test(stroke.code)) return stroke.code.charCodeAt(stroke.code.length - 1);
  return PUNCTUATION_CODES[stroke.code] ?? 0;
}

const NAMED: Readonly<Record<string, string>> = {
  Enter: 'Enter',
  Tab: 'Tab',
  Escape: 'Escape',
  Esc: 'Escape',
  Backspace: 'Backspace',
  Delete: 'Delete',
  ArrowUp: 'ArrowUp',
  ArrowDown: 'ArrowDown',
  ArrowLeft: 'ArrowLeft',
  ArrowRight: 'ArrowRight',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  Space: ' ',
  Insert: 'Insert',
};

function codeFor(key: string): string {
  if (key === ' ') return 'Space';
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (/^F([1-9]|1[0-2])$/.test(key)) return key;
  if (key.length > 1) return key;
  const punctuation: Record<string, string> = {
    '.': 'Period',
    ',': 'Comma',
    '/': 'Slash',
    ';': 'Semicolon',
    "'": 'Quote',
    '-': 'Minus',
    '=': 'Equal',
    '[': 'BracketLeft',
    ']': 'BracketRight',
    '\\': 'Backslash',
    '`': 'Backquote',
  };
  return punctuation[key] ?? '';
}

export function strokeForChar(ch: string): KeyStroke {
  if (ch === '\n') return parseKey('Enter');
  const shiftKey = ch !== ch.toLowerCase();
  return {
    key: ch,
    code: codeFor(ch.toLowerCase()),
    ctrlKey: false,
    shiftKey,
    altKey: false,
    metaKey: false,
    printable: true,
  };
}

export function parseKey(spec: string): KeyStroke {
  const parts = spec === '+' ? ['+'] : spec.split('+');
  const main = parts.pop();
  if (main === undefined || main === '')
    throw new PageError(
      'BAD_REQUEST',
      `params.key: expected a key like Enter, a or Control+A, got "${spec}"`,
    );
  const mods = new Set(parts);
  for (const mod of mods) {
    if (!['Control', 'Shift', 'Alt', 'Meta'].includes(mod))
      throw new PageError('BAD_REQUEST', `params.key: unknown modifier "${mod}" in "${spec}"`);
  }
  const named = NAMED[main];
  const key = named ?? main;
  if (named === undefined && key.length !== 1 && !/^F([1-9]|1[0-2])$/.test(key)) {
    throw new PageError(
      'BAD_REQUEST',
      `params.key: unknown key "${main}" (use Enter, Tab, Escape, Backspace, Delete, Arrow*, Home, End, PageUp, PageDown, Space or one character)`,
    );
  }
  const ctrlKey = mods.has('Control');
  const metaKey = mods.has('Meta');
  const altKey = mods.has('Alt');
  const shiftKey = mods.has('Shift');
  const printable = key.length === 1 && !ctrlKey && !metaKey && !altKey;
  const shown = printable && shiftKey && /^[a-z]$/.test(key) ? key.toUpperCase() : key;
  return { key: shown, code: codeFor(key), ctrlKey, shiftKey, altKey, metaKey, printable };
}

/** Fire one key event; true when no listener cancelled it. */
export function fireKey(el: Element, type: 'keydown' | 'keypress' | 'keyup', stroke: KeyStroke): boolean {
  // keypress reports the character typed in all three; keydown and keyup the key's code.
  const typed = stroke.key === 'Enter' ? 13 : (stroke.key.codePointAt(0) ?? 0);
  const keyCode = type === 'keypress' ? typed : legacyKeyCode(stroke);
  const event = new KeyboardEvent(type, {
    keyCode,
    which: keyCode,
    charCode: type === 'keypress' ? typed : 0,
    key: stroke.key,
    code: stroke.code,
    ctrlKey: stroke.ctrlKey,
    shiftKey: stroke.shiftKey,
    altKey: stroke.altKey,
    metaKey: stroke.metaKey,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: el.ownerDocument.defaultView,
  });
  return el.dispatchEvent(event);
}
