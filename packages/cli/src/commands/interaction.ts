/** The help of the acting commands (scroll, click, hover, fill, type, press, select). */
import type { Command } from 'commander';
import { click, fill, hover, press, scroll, select, typeText } from '../actions/interaction';
import { actionCommand, type CommandContext } from './action-command';

const SELECTOR = 'a CSS selector instead of a handle';

export function interactionCommands(context: CommandContext): Command[] {
  return [
    actionCommand(
      scroll,
      {
        description: 'scroll the page, or inside an element, or bring an element into view',
        args: { where: 'a direction (up, down, left, right) and/or an element handle' },
        options: {
          amount: 'how far, in CSS pixels',
          to: 'scroll to the top, the bottom, or the element',
          selector: SELECTOR,
        },
        examples: [
          'bproxy scroll -s m4q7z2 down',
          'bproxy scroll -s m4q7z2 down --amount 1200',
          'bproxy scroll -s m4q7z2 --to bottom',
          'bproxy scroll -s m4q7z2 el7 --to element',
        ],
      },
      context,
    ),
    actionCommand(
      click,
      {
        description: 'click an element',
        args: { element: 'element handle, e.g. el3' },
        options: {
          selector: SELECTOR,
          button: 'mouse button',
          count: '2 for a double click, 3 for a triple click',
        },
        examples: [
          'bproxy click -s m4q7z2 el3',
          'bproxy click -s m4q7z2 --selector "button[type=submit]"',
          'bproxy click -s m4q7z2 el3 --count 2',
        ],
        after: `Output: {"url":…,"title":…,"navigated":false}, with "openedTabs":[{"tab":"t2","url":…}] when the page
opened a tab (bproxy -s ID session bind --tab t2 to act in it), and "input":"synthetic" when the
browser refused trusted input in this tab (the page saw script events).\n`,
      },
      context,
    ),
    actionCommand(
      hover,
      {
        description: 'move the pointer over an element',
        args: { element: 'element handle, e.g. el3' },
        options: { selector: SELECTOR },
        examples: ['bproxy hover -s m4q7z2 el5'],
      },
      context,
    ),
    actionCommand(
      fill,
      {
        description: 'set the value of a field (fires input and change)',
        args: {
          args: 'element handle and value: `fill el2 VALUE` (with --selector: `fill --selector CSS VALUE`)',
        },
        options: { selector: SELECTOR, value: 'the value (instead of the positional one)' },
        examples: [
          'bproxy fill -s m4q7z2 el2 "Ada Lovelace"',
          'bproxy fill -s m4q7z2 el2 --value ""',
          'bproxy fill -s m4q7z2 --selector "#email" ada@example.com',
        ],
      },
      context,
    ),
    actionCommand(
      typeText,
      {
        description: 'type text key by key (into the focused element, or into --into)',
        args: { text: 'the text to type' },
        options: { into: 'element handle to focus first, e.g. el2', selector: SELECTOR },
        examples: ['bproxy type -s m4q7z2 "hello world"', 'bproxy type -s m4q7z2 "hello" --into el2'],
      },
      context,
    ),
    actionCommand(
      press,
      {
        description: 'press a key or a combination (Enter, Tab, Control+A)',
        args: { key: 'the key' },
        options: { into: 'element handle to focus first', selector: SELECTOR },
        examples: ['bproxy press -s m4q7z2 Enter', 'bproxy press -s m4q7z2 Control+A --into el2'],
      },
      context,
    ),
    actionCommand(
      select,
      {
        description: 'choose options of a <select> by value or label',
        args: { args: 'element handle then one or more values (with --selector: only values)' },
        options: { selector: SELECTOR },
        examples: ['bproxy select -s m4q7z2 el4 fr', 'bproxy select -s m4q7z2 --selector "#size" M L'],
      },
      context,
    ),
  ];
}
