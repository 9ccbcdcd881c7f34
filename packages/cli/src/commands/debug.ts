/** `bproxy debug …` and `bproxy call`: looking inside the daemon, and the escape hatch to any action. */
import { Command, Option } from 'commander';
import { usageError } from '../cli-error';
import { examples, invoke } from '../invoke';
import { compact, intOption } from '../parsers';

export function debugCommand(): Command {
  const debug = new Command('debug')
    .description("the daemon's traces and status, the browser driver's log")
    .addHelpText('after', examples('bproxy debug status --pretty', 'bproxy debug last --limit 5'));
  debug
    .command('last')
    .description('the last request traces (ring of 200)')
    .addOption(new Option('--limit <n>', 'how many (1-200)').argParser(intOption('--limit', 1, 200)))
    .addHelpText('after', examples('bproxy debug last', 'bproxy debug last --limit 5 --pretty'))
    .action(async (opts: { limit?: number }, cmd: Command) => {
      await invoke(cmd, { action: 'debug.last', params: compact({ limit: opts.limit }) });
    });
  debug
    .command('status')
    .description('daemon, browsers and sessions at a glance')
    .addHelpText('after', examples('bproxy debug status --pretty'))
    .action(async (_opts: unknown, cmd: Command) => {
      await invoke(cmd, { action: 'debug.status', params: {} });
    });
  debug
    .command('log')
    .description("the browser driver's own recent log")
    .addOption(new Option('--limit <n>', 'how many entries (1-500)').argParser(intOption('--limit', 1, 500)))
    .addHelpText('after', examples('bproxy debug log -s m4q7z2 --limit 50'))
    .action(async (opts: { limit?: number }, cmd: Command) => {
      await invoke(cmd, { action: 'debug.log', params: compact({ limit: opts.limit }) });
    });
  return debug;
}

export function callCommand(): Command {
  return new Command('call')
    .description('send any protocol action with JSON params')
    .argument('<action>', 'action name, e.g. debug.status or click')
    .argument('[params]', 'params as a JSON object (default {})')
    .addHelpText(
      'after',
      examples(
        'bproxy call debug.status',
        'bproxy call click -s m4q7z2 \'{"target":"el3"}\'',
        'bproxy call text -s m4q7z2 \'{"maxChars":500}\'',
      ),
    )
    .action(async (action: string, raw: string | undefined, _opts: unknown, cmd: Command) => {
      let params: unknown = {};
      if (raw !== undefined) {
        try {
          params = JSON.parse(raw);
        } catch {
          throw usageError(`params must be a JSON object, got ${JSON.stringify(raw)}`);
        }
      }
      if (typeof params !== 'object' || params === null || Array.isArray(params))
        throw usageError('params must be a JSON object like {"limit":5}');
      await invoke(cmd, { action, params: params as Record<string, unknown> });
    });
}
