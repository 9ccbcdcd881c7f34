/** The help of `debug …` and `call`: looking inside the daemon, and the escape hatch to any action. */
import { Command } from 'commander';
import { call, debugLast, debugLog, debugStatus } from '../actions/debug';
import { actionCommand, examples, type CommandContext } from './action-command';

export function debugCommand(context: CommandContext): Command {
  const debug = new Command('debug')
    .description("the daemon's traces and status, the browser driver's log")
    .addHelpText('after', examples('bproxy debug status --pretty', 'bproxy debug last --limit 5'));
  for (const command of [
    actionCommand(
      debugLast,
      {
        description: 'the last request traces (ring of 200)',
        args: {},
        options: { limit: 'how many (1-200)' },
        examples: ['bproxy debug last', 'bproxy debug last --limit 5 --pretty'],
      },
      context,
    ),
    actionCommand(
      debugStatus,
      {
        description: 'daemon, browsers and sessions at a glance',
        args: {},
        options: {},
        examples: ['bproxy debug status --pretty'],
      },
      context,
    ),
    actionCommand(
      debugLog,
      {
        description: "the browser driver's own recent log",
        args: {},
        options: { limit: 'how many entries (1-500)' },
        examples: ['bproxy debug log -s m4q7z2 --limit 50'],
      },
      context,
    ),
  ])
    debug.addCommand(command);
  return debug;
}

export function callCommand(context: CommandContext): Command {
  return actionCommand(
    call,
    {
      description: 'send any protocol action with JSON params',
      args: {
        action: 'action name, e.g. debug.status or click',
        params: 'params as a JSON object (default {})',
      },
      options: {},
      examples: [
        'bproxy call debug.status',
        'bproxy call click -s m4q7z2 \'{"target":"el3"}\'',
        'bproxy call text -s m4q7z2 \'{"maxChars":500}\'',
      ],
    },
    context,
  );
}
