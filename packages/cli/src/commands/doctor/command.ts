/**
 * `bproxy doctor [--json] [--extension-id ID]`: the one command to run when something does not work.
 * Its checks live beside this file, one per group, and are imported only when it runs.
 */
import { Command } from 'commander';
import { examples } from '../../actions/grammar';
import type { GlobalValues } from '../../global-options';
import type { CommandContext, CustomCommand } from '../action-command';

const HELP = `${examples(
  'bproxy doctor',
  'bproxy doctor --json                                   # for tools: {"ok","version","home","checks":[…]}',
  'bproxy doctor --extension-id abcdefghijklmnopabcdefghijklmnop   # is this id (chrome://extensions) trusted?',
)}
Text for people by default; --json (the global option) prints the report for tools.
Checks, each failing one with the command that fixes it:
  daemon     BPROXY_HOME and its files (secrets 0600, folders 0700, yours), running, port, its version
  browsers   Chrome, Chromium, Edge, Brave for this user; the binary for headless sessions
  extension  the trusted ids (BPROXY_HOME/extensions.json), paired, connected, its version
  host       the native host's copy in BPROXY_HOME/host/<version>/, registered per browser, answering
             hello when run as the browser runs it, its version
  agent      a provider configured, its model SDK where the native host loads it from
  terminal   the side panel Terminal's program
Warnings (they do not fail it): no agent provider configured; a paired extension not connected now.
Exit code: 0 when no check failed, 1 otherwise. It only reads: nothing is changed, no secret printed
(running the native host once to hear its hello changes nothing).
`;

export const DOCTOR: CustomCommand = {
  build: (context: CommandContext) =>
    new Command('doctor')
      .description('check every part of this installation and say what to run for each problem')
      .option(
        '--extension-id <id>',
        'also check that this extension id (as chrome://extensions shows it) is trusted',
      )
      .addHelpText('after', HELP)
      .action(async (opts: { extensionId?: string }, cmd: Command) => {
        const { runDoctor } = await import('./run');
        // --json is a global option (every command takes it); here it chooses JSON over the text.
        const json = cmd.optsWithGlobals<GlobalValues>().json === true;
        await runDoctor({ ...opts, json }, context.env as NodeJS.ProcessEnv);
      }),
  reference: [
    {
      usage: '`bproxy doctor [--json] [--extension-id ID]`',
      does: 'check the daemon, browsers, extension, native host, agent and Terminal; each problem with its fix (exit 1 on any)',
    },
  ],
};
