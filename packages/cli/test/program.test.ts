/**
 * The CLI builds only the section of the tree a command line needs (start-up speed): the command word
 * must be found past the global options, and a partial tree must parse its command exactly as the
 * whole tree does.
 */
import { describe, expect, it } from 'vitest';
import { SECTIONS, entryName } from '../src/actions/index';
import { buildProgram, commandWord } from '../src/program';

describe('the bproxy program', () => {
  it('builds every command of the tree, each name once, under its section heading', () => {
    const names = SECTIONS.flatMap((s) => s.entries.map(entryName));
    expect(new Set(names).size).toBe(names.length);
    const built = buildProgram(false).commands;
    expect(built.map((c) => c.name())).toEqual(names);
    const headings = SECTIONS.flatMap((s) => s.entries.map(() => s.heading));
    expect(built.map((c) => c.helpGroup())).toEqual(headings);
  });
});

describe('commandWord', () => {
  it.each([
    [['click', 'el3'], 'click'],
    [['-s', 'reload', 'click', 'el3'], 'click'],
    [['--session', 'abcdef', '--timeout', '500', 'text'], 'text'],
    [['--session=abcdef', '--pretty', 'tab', 'open'], 'tab'],
    [['-sabcdef', '--json', 'snapshot'], 'snapshot'],
    [['--help'], undefined],
    [['-V'], undefined],
    [['--bogus', 'click'], undefined],
    [['-s'], undefined],
    [[], undefined],
  ])('%j → %s', (args, word) => {
    expect(commandWord(args)).toBe(word);
  });
});

describe('a program built for one command line', () => {
  it('holds only the group of its command', () => {
    const names = buildProgram(false, ['-s', 'abcdef', 'click', 'el3']).commands.map((c) => c.name());
    expect(names).toContain('click');
    expect(names).toContain('wait');
    expect(names).not.toContain('service');
  });

  it('is the whole tree for help, version and unknown words', () => {
    const whole = buildProgram(false).commands.length;
    for (const args of [['--help'], ['help', 'click'], ['-V'], ['bogus']])
      expect(buildProgram(false, args).commands.length).toBe(whole);
  });
});
