import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  joinWindowsCommandLine,
  sameWindowsPath,
  splitWindowsCommandLine,
} from '../../src/downstream/windows-command-line';

describe('Windows command lines', () => {
  it('splits what Win32_Process reports for Chrome, quoted paths included', () => {
    expect(
      splitWindowsCommandLine(
        '"C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe" --headless --user-data-dir="C:\\Users\\A B\\p" --remote-debugging-port=9222',
      ),
    ).toEqual([
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      '--headless',
      '--user-data-dir=C:\\Users\\A B\\p',
      '--remote-debugging-port=9222',
    ]);
  });

  it('follows the backslash-before-quote rules', () => {
    expect(splitWindowsCommandLine('a\\\\"b c" d\\"e f\\\\g')).toEqual(['a\\b c', 'd"e', 'f\\\\g']);
    expect(splitWindowsCommandLine('""  x')).toEqual(['', 'x']);
  });

  it('quotes any arguments so that they split back unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', ' ', '\\', '"', '\t', 'C', ':', '=') }), {
          minLength: 1,
        }),
        (args) => {
          expect(splitWindowsCommandLine(joinWindowsCommandLine(args))).toEqual(args);
        },
      ),
    );
  });

  it('compares paths as Windows does', () => {
    expect(sameWindowsPath('C:\\Users\\Me\\Profile\\', 'c:/users/me/profile')).toBe(true);
    expect(sameWindowsPath('C:\\Users\\Me\\Profile', 'C:\\Users\\Me\\Profile2')).toBe(false);
  });
});
