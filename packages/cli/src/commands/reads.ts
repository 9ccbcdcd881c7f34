/**
 * Reading the page: text, links, elements, inspect, snapshot, screenshot. An optional element
 * (handle or --selector) narrows a read to that part of the page; elements, links and snapshot mint
 * the handles (el3, ln2) the acting commands take.
 */
import { Command, Option } from 'commander';
import { examples, invoke } from '../invoke';
import { compact, elementTarget, intOption } from '../parsers';

const maxChars = () =>
  new Option('--max-chars <n>', 'characters per page of output (100-1000000)').argParser(
    intOption('--max-chars', 100, 1_000_000),
  );
const offset = () =>
  new Option('--offset <n>', 'start at this character (from nextOffset)').argParser(
    intOption('--offset', 0, 100_000_000),
  );
const limit = () =>
  new Option('--limit <n>', 'at most this many entries (1-1000)').argParser(intOption('--limit', 1, 1000));
const contains = () => new Option('--contains <text>', 'only entries containing this text');
const selector = () => new Option('--selector <css>', 'a CSS selector instead of a handle');

export function readCommands(): Command[] {
  const text = new Command('text')
    .description('read the visible text of the page (or of one element)')
    .argument('[element]', 'element handle to read from, e.g. el3')
    .addOption(selector())
    .addOption(maxChars())
    .addOption(offset())
    .addHelpText(
      'after',
      examples(
        'bproxy text -s m4q7z2',
        'bproxy text -s m4q7z2 --max-chars 2000 --offset 2000',
        'bproxy text -s m4q7z2 --selector main --pretty',
      ),
    )
    .action(
      async (
        handle: string | undefined,
        opts: { selector?: string; maxChars?: number; offset?: number },
        cmd: Command,
      ) => {
        const target = elementTarget(handle, opts.selector, false);
        await invoke(cmd, {
          action: 'text',
          params: compact({ target, maxChars: opts.maxChars, offset: opts.offset }),
        });
      },
    );

  const links = new Command('links')
    .description('list the links of the page (mints ln handles)')
    .argument('[element]', 'only links inside this element')
    .addOption(selector())
    .addOption(contains())
    .addOption(limit())
    .addHelpText(
      'after',
      examples('bproxy links -s m4q7z2', 'bproxy links -s m4q7z2 --contains pricing --limit 20'),
    )
    .action(
      async (
        handle: string | undefined,
        opts: { selector?: string; contains?: string; limit?: number },
        cmd: Command,
      ) => {
        const target = elementTarget(handle, opts.selector, false);
        await invoke(cmd, {
          action: 'links',
          params: compact({ target, contains: opts.contains, limit: opts.limit }),
        });
      },
    );

  const elements = new Command('elements')
    .description('list what can be acted on (mints el handles)')
    .argument('[element]', 'only elements inside this element')
    .addOption(selector())
    .addOption(contains())
    .option('--role <role>', 'only elements with this role (button, textbox, link, …)')
    .addOption(limit())
    .addHelpText(
      'after',
      examples('bproxy elements -s m4q7z2', 'bproxy elements -s m4q7z2 --role button --contains "Sign in"'),
    )
    .action(
      async (
        handle: string | undefined,
        opts: { selector?: string; contains?: string; role?: string; limit?: number },
        cmd: Command,
      ) => {
        const target = elementTarget(handle, opts.selector, false);
        await invoke(cmd, {
          action: 'elements',
          params: compact({ target, contains: opts.contains, role: opts.role, limit: opts.limit }),
        });
      },
    );

  const inspect = new Command('inspect')
    .description('describe one element: role, name, attributes, box, state')
    .argument('[element]', 'element handle, e.g. el3')
    .addOption(selector())
    .addHelpText(
      'after',
      examples(
        'bproxy inspect -s m4q7z2 el3',
        'bproxy inspect -s m4q7z2 --selector "form button[type=submit]"',
      ),
    )
    .action(async (handle: string | undefined, opts: { selector?: string }, cmd: Command) => {
      await invoke(cmd, {
        action: 'inspect',
        params: { target: elementTarget(handle, opts.selector, true) },
      });
    });

  const snapshot = new Command('snapshot')
    .description(
      'a compact outline of the page for language models (mints handles); long text is left out unless --contains or an element is given',
    )
    .argument('[element]', 'only this part of the page')
    .addOption(selector())
    .addOption(maxChars())
    .addOption(offset())
    .addOption(contains())
    .addHelpText(
      'after',
      examples('bproxy snapshot -s m4q7z2 --pretty', 'bproxy snapshot -s m4q7z2 --contains checkout'),
    )
    .action(
      async (
        handle: string | undefined,
        opts: { selector?: string; maxChars?: number; offset?: number; contains?: string },
        cmd: Command,
      ) => {
        const target = elementTarget(handle, opts.selector, false);
        await invoke(cmd, {
          action: 'snapshot',
          params: compact({ target, maxChars: opts.maxChars, offset: opts.offset, contains: opts.contains }),
        });
      },
    );

  const screenshot = new Command('screenshot')
    .description('capture the page (or one element) to an image file and print its path')
    .argument('[element]', 'only this element')
    .addOption(selector())
    .option('--full-page', 'the whole page, not just the viewport')
    .addOption(new Option('--format <format>', 'image format').choices(['png', 'jpeg']))
    .addOption(new Option('--quality <n>', 'JPEG quality (1-100)').argParser(intOption('--quality', 1, 100)))
    .option(
      '--out <file>',
      'where to write the image (default: $TMPDIR/bproxy-screenshots/screenshot-<time>.<ext>)',
    )
    .addHelpText(
      'after',
      examples('bproxy screenshot -s m4q7z2', 'bproxy screenshot -s m4q7z2 --full-page --out page.png'),
    )
    .action(
      async (
        handle: string | undefined,
        opts: { selector?: string; fullPage?: boolean; format?: string; quality?: number; out?: string },
        cmd: Command,
      ) => {
        const target = elementTarget(handle, opts.selector, false);
        const params = compact({
          target,
          fullPage: opts.fullPage,
          format: opts.format,
          quality: opts.quality,
        });
        await invoke(cmd, { action: 'screenshot', params, render: { kind: 'screenshot', out: opts.out } });
      },
    );

  return [text, links, elements, inspect, snapshot, screenshot];
}
