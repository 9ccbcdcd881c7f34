/**
 * US-layout key definitions for trusted keyboard input, and parsing of combos like Control+A.
 * Chromium needs key, code and windowsVirtualKeyCode together for its own shortcuts (select all,
 * form submit on Enter) to fire.
 */

export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** What the key types when no Control/Alt/Meta is held. */
  text?: string;
  /** 1 for the left modifier keys. */
  location?: number;
}

export const MODIFIER_BITS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 } as const;
export type ModifierName = keyof typeof MODIFIER_BITS;

const NAMED: Record<string, KeyDefinition> = {
  Enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  Tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  Escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  Backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  Delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  Insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
  Home: { key: 'Home', code: 'Home', keyCode: 36 },
  End: { key: 'End', code: 'End', keyCode: 35 },
  PageUp: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  PageDown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  ArrowLeft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  ArrowUp: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  ArrowRight: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  ArrowDown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  ' ': { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  Shift: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 },
  Control: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 },
  Alt: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 },
  Meta: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 },
};

const ALIASES: Record<string, string> = {
  Esc: 'Escape',
  Space: ' ',
  Spacebar: ' ',
  Return: 'Enter',
  Del: 'Delete',
  Up: 'ArrowUp',
  Down: 'ArrowDown',
  Left: 'ArrowLeft',
  Right: 'ArrowRight',
  Ctrl: 'Control',
  Cmd: 'Meta',
  Command: 'Meta',
  Option: 'Alt',
};

/** Unshifted and shifted characters of the US layout's symbol keys. */
const SYMBOLS: [string, string, string, number][] = [
  ['`', '~', 'Backquote', 192],
  ['-', '_', 'Minus', 189],
  ['=', '+', 'Equal', 187],
  ['[', '{', 'BracketLeft', 219],
  [']', '}', 'BracketRight', 221],
  ['\\', '|', 'Backslash', 220],
  [';', ':', 'Semicolon', 186],
  ["'", '"', 'Quote', 222],
  [',', '<', 'Comma', 188],
  ['.', '>', 'Period', 190],
  ['/', '?', 'Slash', 191],
];
const SHIFTED_DIGITS = ')!@#$%^&*(';

/** The definition for one key name or one typed character; `shift` says whether Shift produces it. */
export function keyDefinition(name: string): { def: KeyDefinition; shift: boolean } | undefined {
  const canonical = ALIASES[name] ?? name;
  const named = NAMED[canonical];
  if (named !== undefined) return { def: named, shift: false };
  const fn = /^F([1-9]|1[0-2])$/.exec(canonical);
  if (fn !== null)
    return { def: { key: canonical, code: canonical, keyCode: 111 + Number(fn[1]) }, shift: false };
  if (canonical.length !== 1) return undefined;
  const ch = canonical;
  if (/^[a-z]$/.test(ch))
    return {
      def: { key: ch, code: `Key${ch.toUpperCase()}`, keyCode: ch.toUpperCase().charCodeAt(0), text: ch },
      shift: false,
    };
  if (/^[A-Z]$/.test(ch))
    return { def: { key: ch, code: `Key${ch}`, keyCode: ch.charCodeAt(0), text: ch }, shift: true };
  if (/^[0-9]$/.test(ch))
    return { def: { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch }, shift: false };
  const digit = SHIFTED_DIGITS.indexOf(ch);
  if (digit !== -1)
    return { def: { key: ch, code: `Digit${digit}`, keyCode: 48 + digit, text: ch }, shift: true };
  for (const [plain, shifted, code, keyCode] of SYMBOLS) {
    if (ch === plain) return { def: { key: ch, code, keyCode, text: ch }, shift: false };
    if (ch === shifted) return { def: { key: ch, code, keyCode, text: ch }, shift: true };
  }
  return undefined;
}

export interface KeyCombo {
  modifiers: ModifierName[];
  key: KeyDefinition;
  /** Shift is part of the key itself (an uppercase letter, a shifted symbol). */
  impliedShift: boolean;
}

/** Parses `Enter`, `a`, `Control+A`, `Shift+Tab`, `+`; undefined for a key we do not know. */
export function parseCombo(input: string): KeyCombo | undefined {
  const parts = input === '+' ? ['+'] : input.split('+');
  const last = parts.pop();
  if (last === undefined || last === '') return undefined;
  const modifiers: ModifierName[] = [];
  for (const part of parts) {
    const canonical = ALIASES[part] ?? part;
    if (!(canonical in MODIFIER_BITS)) return undefined;
    modifiers.push(canonical as ModifierName);
  }
  const found = keyDefinition(letterCase(last, modifiers));
  if (found === undefined) return undefined;
  return { modifiers, key: found.def, impliedShift: found.shift && !modifiers.includes('Shift') };
}

/**
 * A letter in a combo names a key, not a character: Control+A is Control with the A key (no Shift),
 * Shift+a types "A".
 */
function letterCase(key: string, modifiers: readonly ModifierName[]): string {
  if (!/^[a-zA-Z]$/.test(key)) return key;
  if (modifiers.includes('Shift')) return key.toUpperCase();
  return modifiers.length > 0 ? key.toLowerCase() : key;
}
