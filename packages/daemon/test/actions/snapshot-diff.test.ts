import { describe, expect, it } from 'vitest';
import { diffSnapshot, LONG_TEXT_SHOWN, LONG_TEXT_TOTAL } from '../../src/actions/snapshot-diff';

const diff = (prev: string[], next: string[], prevLong: string[] = [], nextLong: string[] = []) =>
  diffSnapshot({ lines: prev, longText: prevLong }, { lines: next, longText: nextLong });

describe('snapshot diff', () => {
  it('answers nothing when nothing changed', () => {
    const lines = ['main', '  h1 "Shop"', '  button "Buy" [el1]'];
    expect(diff(lines, [...lines], ['a long run'], ['a long run'])).toEqual([]);
  });

  it('shows added, removed and changed lines, without context or indentation', () => {
    const prev = [
      'main',
      '  h1 "Cart"',
      '  textbox "Qty" = 1 [el1]',
      '  button "Remove" [el2]',
      '  text: Total 10',
    ];
    const next = [
      'main',
      '  h1 "Cart"',
      '  textbox "Qty" = 2 [el1]',
      '  text: Total 20',
      '  alert',
      '    text: Saved',
    ];
    expect(diff(prev, next)).toEqual([
      '- button "Remove" [el2]',
      '~ textbox "Qty" = 2 [el1]',
      '~ text: Total 20',
      '+ alert',
      '+ text: Saved',
    ]);
  });

  it('names every handle of a run of removed lines on one line, and keeps lone or handle-less removals whole', () => {
    const card = (n: number, name: string) => [
      `  listitem`,
      `    link "${name}" [ln${n}]`,
      `    text: £${n}9.00`,
      `    button "Add ${name} to basket" [el${n}]`,
    ];
    const prev = [
      'main',
      '  text: Showing 3 products',
      ...card(1, 'Oak desk'),
      ...card(2, 'Pine shelf'),
      ...card(3, 'Ash stool'),
      '  alert',
      '    text: Price must be a number',
      '  links: [Next][ln8] [Last][ln9]',
      '  button "Clear" [el9]',
    ];
    const next = ['main', '  text: Showing 1 products', ...card(2, 'Pine shelf')];
    const out = diff(prev, next);
    expect(out).toEqual([
      '~ text: Showing 1 products',
      '- 4 lines gone: ln1 el1',
      '- 8 lines gone: ln3 el3 ln8 ln9 el9',
    ]);
    // Every removed handle is still named: an agent knows each one is dead.
    for (const handle of ['ln1', 'el1', 'ln3', 'el3', 'ln8', 'ln9', 'el9'])
      expect(out.join('\n')).toMatch(new RegExp(`\\b${handle}\\b`));
    // Text that went away without an element, and a single removed line, stay whole.
    expect(
      diff(
        ['main', '  alert', '    text: Price must be a number', '  text: Total'],
        ['main', '  text: Total'],
      ),
    ).toEqual(['- alert', '- text: Price must be a number']);
    expect(diff(['main', '  button "Remove" [el2]', '  text: Total'], ['main', '  text: Total'])).toEqual([
      '- button "Remove" [el2]',
    ]);
  });

  it('pairs a changed element by its handle even when it moved within the changed run', () => {
    const prev = ['list', '  button "A" [el1]', '  button "B" [el2]'];
    const next = ['list', '  button "B (2)" [el2]', '  button "A (1)" [el1]'];
    expect(diff(prev, next)).toEqual(['~ button "B (2)" [el2]', '~ button "A (1)" [el1]']);
  });

  it('shows new long text whatever its length, cut with a continuation', () => {
    const sentence = 'Your payment could not be processed, please check the card number and try again.';
    expect(diff(['main'], ['main'], [], [sentence])).toEqual([`+ text: ${sentence}`]);
    const long = 'x'.repeat(LONG_TEXT_SHOWN + 50);
    const [line] = diff(['main'], ['main'], [], [long]);
    expect(line).toBe(`+ text: ${'x'.repeat(LONG_TEXT_SHOWN)}… (cut: text reads it whole)`);
    const many = Array.from({ length: 8 }, (_, i) => `${i}`.repeat(LONG_TEXT_SHOWN));
    const out = diff(['main'], ['main'], [], many);
    expect(out.at(-1)).toBe(
      `(${8 - LONG_TEXT_TOTAL / LONG_TEXT_SHOWN} more new text runs: read them with text)`,
    );
    // Long text already read is not news.
    expect(diff(['main'], ['main'], [sentence], [sentence])).toEqual([]);
  });

  it('replaces without matching when the changed run is too large to match up', () => {
    const prev = Array.from({ length: 2100 }, (_, i) => `text: a${i}`);
    const next = Array.from({ length: 2100 }, (_, i) => `text: b${i}`);
    const out = diff(prev, next);
    expect(out).toHaveLength(2100);
    expect(out.every((l) => l.startsWith('~ text: b'))).toBe(true);
  });
});
