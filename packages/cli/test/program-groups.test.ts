/**
 * The CLI builds only the command group a command line needs (start-up speed): each group's list of
 * names must match what it builds, the command word must be found past the global options, and a
 * partial tree must parse its command exactly as the whole tree does.
 */
import { describe, expect, it } from 'vitest';
import { GROUPS, buildProgram, commandWord } from '../src/program';

const context = { env: {}, run: () => Promise.resolve() };

describe('the command groups of the bproxy program', () => {
  it.each(GROUPS.map((g) => [g.heading, g] as const))(
    '%s lists exactly the commands it builds',
    (_h, group) => {
      expect(group.commands(context).map((c) => c.name())).toEqual([...group.names]);
    },
  );

  it('cover every command of the whole tree, once', () => {
    const all = buildProgram(false).commands.map((c) => c.name());
    expect(GROUPS.flatMap((g) => g.names).sort()).toEqual([...all].sort());
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
