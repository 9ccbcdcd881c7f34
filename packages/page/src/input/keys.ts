/**
 * Key names as agents write them (Enter, Tab, ArrowDown, a, Control+A) turned into KeyboardEvent
 * fields. keyCode cannot be set through the event constructor, so only key and code are filled.
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
  const event = new KeyboardEvent(type, {
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
