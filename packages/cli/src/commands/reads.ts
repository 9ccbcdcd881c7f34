/** The help of the reading commands (text, links, elements, inspect, snapshot, screenshot). */
import type { Command } from 'commander';
import { elements, inspect, links, readText, screenshot, snapshot } from '../actions/reads';
import { actionCommand, type CommandContext } from './action-command';

const SELECTOR = 'a CSS selector instead of a handle';
const MAX_CHARS = 'characters per page of output (100-1000000)';
const OFFSET = 'start at this character (from nextOffset)';
const LIMIT = 'at most this many entries (1-1000)';
const CONTAINS = 'only entries containing this text';

export function readCommands(context: CommandContext): Command[] {
  return [
    actionCommand(
      readText,
      {
        description: 'read the visible text of the page (or of one element)',
        args: { element: 'element handle to read from, e.g. el3' },
        options: { selector: SELECTOR, maxChars: MAX_CHARS, offset: OFFSET },
        examples: [
          'bproxy text -s m4q7z2',
          'bproxy text -s m4q7z2 --max-chars 2000 --offset 2000',
          'bproxy text -s m4q7z2 --selector main --pretty',
        ],
      },
      context,
    ),
    actionCommand(
      links,
      {
        description: 'list the links of the page (mints ln handles)',
        args: { element: 'only links inside this element' },
        options: { selector: SELECTOR, contains: CONTAINS, limit: LIMIT },
        examples: ['bproxy links -s m4q7z2', 'bproxy links -s m4q7z2 --contains pricing --limit 20'],
      },
      context,
    ),
    actionCommand(
      elements,
      {
        description: 'list what can be acted on (mints el handles)',
        args: { element: 'only elements inside this element' },
        options: {
          selector: SELECTOR,
          contains: CONTAINS,
          role: 'only elements with this role (button, textbox, link, …)',
          limit: LIMIT,
        },
        examples: [
          'bproxy elements -s m4q7z2',
          'bproxy elements -s m4q7z2 --role button --contains "Sign in"',
        ],
      },
      context,
    ),
    actionCommand(
      inspect,
      {
        description: 'describe one element: role, name, attributes, box, state',
        args: { element: 'element handle, e.g. el3' },
        options: { selector: SELECTOR },
        examples: [
          'bproxy inspect -s m4q7z2 el3',
          'bproxy inspect -s m4q7z2 --selector "form button[type=submit]"',
        ],
      },
      context,
    ),
    actionCommand(
      snapshot,
      {
        description:
          'a compact outline of the page for language models (mints handles); long text is left out unless --contains or an element is given',
        args: { element: 'only this part of the page' },
        options: { selector: SELECTOR, maxChars: MAX_CHARS, offset: OFFSET, contains: CONTAINS },
        examples: ['bproxy snapshot -s m4q7z2 --pretty', 'bproxy snapshot -s m4q7z2 --contains checkout'],
      },
      context,
    ),
    actionCommand(
      screenshot,
      {
        description: 'capture the page (or one element) to an image file and print its path',
        args: { element: 'only this element' },
        options: {
          selector: SELECTOR,
          fullPage: 'the whole page, not just the viewport',
          format: 'image format',
          quality: 'JPEG quality (1-100)',
          out: 'where to write the image (default: $BPROXY_HOME/screenshots/screenshot-<time>.<ext>, a private folder)',
        },
        examples: ['bproxy screenshot -s m4q7z2', 'bproxy screenshot -s m4q7z2 --full-page --out page.png'],
      },
      context,
    ),
  ];
}
