/**
 * Acting on the page: scroll, click, hover, fill, type, press, select. Elements are handles from a
 * read (el3) or `--selector CSS`; the daemon paces these per session, the CLI never waits itself.
 */
import { Command, Option } from 'commander';
import { usageError } from '../cli-error';
import { examples, invoke } from '../invoke';
import { compact, elementTarget, intOption, isElementHandle } from '../parsers';

const selector = () => new Option('--selector <css>', 'a CSS selector instead of a handle');
const DIRECTIONS = ['up', 'down', 'left', 'right'];

function scrollCommand(): Command {
  return new Command('scroll')
    .description('scroll the page, or inside an element, or bring an element into view')
    .argument('[where...]', 'a direction (up, down, left, right) and/or an element handle')
    .addOption(
      new Option('--amount <px>', 'how far, in CSS pixels').argParser(intOption('--amount', 1, 100_000)),
    )
    .addOption(
      new Option('--to <place>', 'scroll to the top, the bottom, or the element').choices([
        'top',
        'bottom',
        'element',
      ]),
    )
    .addOption(selector())
    .addHelpText(
      'after',
      examples(
        'bproxy scroll -s m4q7z2 down',
        'bproxy scroll -s m4q7z2 down --amount 1200',
        'bproxy scroll -s m4q7z2 --to bottom',
        'bproxy scroll -s m4q7z2 el7 --to element',
      ),
    )
    .action(
      async (where: string[], opts: { amount?: number; to?: string; selector?: string }, cmd: Command) => {
        let direction: string | undefined;
        let handle: string | undefined;
        for (const word of where) {
          if (DIRECTIONS.includes(word) && direction === undefined) direction = word;
          else if (isElementHandle(word) && handle === undefined) handle = word;
          else
            throw usageError(
              `scroll takes a direction (${DIRECTIONS.join(', ')}) and/or an element handle, got "${word}"`,
            );
        }
        if (direction !== undefined && opts.to !== undefined)
          throw usageError('give a direction or --to, not both');
        const target = elementTarget(handle, opts.selector, opts.to === 'element');
        await invoke(cmd, {
          action: 'scroll',
          params: compact({ direction, amount: opts.amount, to: opts.to, target }),
        });
      },
    );
}

function clickCommand(): Command {
  return new Command('click')
    .description('click an element')
    .argument('[element]', 'element handle, e.g. el3')
    .addOption(selector())
    .addOption(new Option('--button <button>', 'mouse button').choices(['left', 'middle', 'right']))
    .addOption(
      new Option('--count <n>', '2 for a double click, 3 for a triple click').argParser(
        intOption('--count', 1, 3),
      ),
    )
    .addHelpText(
      'after',
      `${examples(
        'bproxy click -s m4q7z2 el3',
        'bproxy click -s m4q7z2 --selector "button[type=submit]"',
        'bproxy click -s m4q7z2 el3 --count 2',
      )}Output: {"url":…,"title":…,"navigated":false}, with "openedTabs":[{"tab":"t2","url":…}] when the page
opened a tab (bproxy -s ID session bind --tab t2 to act in it), and "input":"synthetic" when the
browser refused trusted input in this tab (the page saw script events).\n`,
    )
    .action(
      async (
        handle: string | undefined,
        opts: { selector?: string; button?: string; count?: number },
        cmd: Command,
      ) => {
        const target = elementTarget(handle, opts.selector, true);
        await invoke(cmd, {
          action: 'click',
          params: compact({ target, button: opts.button, clickCount: opts.count }),
        });
      },
    );
}

function hoverCommand(): Command {
  return new Command('hover')
    .description('move the pointer over an element')
    .argument('[element]', 'element handle, e.g. el3')
    .addOption(selector())
    .addHelpText('after', examples('bproxy hover -s m4q7z2 el5'))
    .action(async (handle: string | undefined, opts: { selector?: string }, cmd: Command) => {
      await invoke(cmd, { action: 'hover', params: { target: elementTarget(handle, opts.selector, true) } });
    });
}

function fillCommand(): Command {
  return new Command('fill')
    .description('set the value of a field (fires input and change)')
    .argument(
      '[args...]',
      'element handle and value: `fill el2 VALUE` (with --selector: `fill --selector CSS VALUE`)',
    )
    .addOption(selector())
    .option('--value <value>', 'the value (instead of the positional one)')
    .addHelpText(
      'after',
      examples(
        'bproxy fill -s m4q7z2 el2 "Ada Lovelace"',
        'bproxy fill -s m4q7z2 el2 --value ""',
        'bproxy fill -s m4q7z2 --selector "#email" ada@example.com',
      ),
    )
    .action(async (args: string[], opts: { selector?: string; value?: string }, cmd: Command) => {
      const [handle, positional, extra] =
        opts.selector === undefined ? [args[0], args[1], args[2]] : [undefined, args[0], args[1]];
      if (extra !== undefined)
        throw usageError('fill takes one element and one value; quote values with spaces');
      if (positional !== undefined && opts.value !== undefined)
        throw usageError('give the value once: as an argument or with --value');
      const value = positional ?? opts.value;
      if (value === undefined) throw usageError('give the value to fill: `fill el2 VALUE` or --value VALUE');
      await invoke(cmd, {
        action: 'fill',
        params: { target: elementTarget(handle, opts.selector, true), value },
      });
    });
}

function typeCommand(): Command {
  return new Command('type')
    .description('type text key by key (into the focused element, or into --into)')
    .argument('<text>', 'the text to type')
    .option('--into <element>', 'element handle to focus first, e.g. el2')
    .addOption(selector())
    .addHelpText(
      'after',
      examples('bproxy type -s m4q7z2 "hello world"', 'bproxy type -s m4q7z2 "hello" --into el2'),
    )
    .action(async (text: string, opts: { into?: string; selector?: string }, cmd: Command) => {
      await invoke(cmd, {
        action: 'type',
        params: compact({ text, target: elementTarget(opts.into, opts.selector, false) }),
      });
    });
}

function pressCommand(): Command {
  return new Command('press')
    .description('press a key or a combination (Enter, Tab, Control+A)')
    .argument('<key>', 'the key')
    .option('--into <element>', 'element handle to focus first')
    .addOption(selector())
    .addHelpText(
      'after',
      examples('bproxy press -s m4q7z2 Enter', 'bproxy press -s m4q7z2 Control+A --into el2'),
    )
    .action(async (key: string, opts: { into?: string; selector?: string }, cmd: Command) => {
      await invoke(cmd, {
        action: 'press',
        params: compact({ key, target: elementTarget(opts.into, opts.selector, false) }),
      });
    });
}

function selectCommand(): Command {
  return new Command('select')
    .description('choose options of a <select> by value or label')
    .argument('[args...]', 'element handle then one or more values (with --selector: only values)')
    .addOption(selector())
    .addHelpText(
      'after',
      examples('bproxy select -s m4q7z2 el4 fr', 'bproxy select -s m4q7z2 --selector "#size" M L'),
    )
    .action(async (args: string[], opts: { selector?: string }, cmd: Command) => {
      const handle = opts.selector === undefined ? args[0] : undefined;
      const values = opts.selector === undefined ? args.slice(1) : args;
      const target = elementTarget(handle, opts.selector, true);
      if (values.length === 0) throw usageError('give at least one value to select');
      await invoke(cmd, { action: 'select', params: { target, values } });
    });
}

export function interactionCommands(): Command[] {
  return [
    scrollCommand(),
    clickCommand(),
    hoverCommand(),
    fillCommand(),
    typeCommand(),
    pressCommand(),
    selectCommand(),
  ];
}
