/**
 * `bproxy host install|uninstall|status` (the native messaging host's registration with the browsers)
 * and `bproxy setup` (the one command a user runs once). The work lives in ../host/host-commands.ts,
 * imported only when one of these runs.
 */
import { Command } from 'commander';
import { examples } from '../actions/grammar';
import { globalOptionsOf, type CommandContext, type CustomCommand } from './action-command';

/** The names `--browser` takes (a test keeps this list equal to the registration's table). */
export const BROWSER_NAMES_HELP =
  'chrome, chrome-beta, chrome-dev, chrome-canary, chromium, edge, edge-beta, edge-dev, edge-canary, brave, vivaldi';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export interface RegistrationFlags {
  readonly browser: string[];
  readonly extensionId?: string;
  readonly terminalCommand?: string;
}

/** What --extension-id does when installing: it adds to the one trusted-ids setting. */
const TRUST_ID_HELP =
  'trust this extension id too (a self-built extension; kept in BPROXY_HOME/extensions.json, which the daemon, the host and the CLI read)';

function withRegistrationFlags(command: Command, verb: string, idHelp = TRUST_ID_HELP): Command {
  return command
    .option('--browser <name>', `${verb} this browser only (repeatable): ${BROWSER_NAMES_HELP}`, collect, [])
    .option('--extension-id <id>', idHelp);
}

/** Baked into the launcher: a browser started from the desktop has no other way to pass it. */
function withTerminalCommand(command: Command): Command {
  return command.option(
    '--terminal-command <command>',
    'the program the side panel Terminal runs, with its arguments (default: claude when on PATH, else your shell)',
  );
}

function installCommand(context: CommandContext): Command {
  return withRegistrationFlags(
    withTerminalCommand(
      new Command('install').description(
        'register the host with every Chromium-family browser installed for this user',
      ),
    ),
    'register with',
  )
    .addHelpText(
      'after',
      `${examples(
        'bproxy host install',
        'bproxy host install --browser chrome --browser brave',
        'bproxy host install --terminal-command "bash -l"',
        'bproxy host install --extension-id abcdefghijklmnopabcdefghijklmnop',
      )}
Output: {"launcher":…,"node":…,"registered":[{"browser","name","location","replaced"}],"skipped":[…]}
`,
    )
    .action(async (opts: RegistrationFlags, cmd: Command) => {
      const { hostInstall } = await import('../host/host-commands');
      await hostInstall(opts, globalOptionsOf(cmd, context.env).pretty);
    });
}

function uninstallCommand(context: CommandContext): Command {
  return new Command('uninstall')
    .description('remove exactly what `host install` wrote (never a registration that is not ours)')
    .option(
      '--browser <name>',
      `unregister this browser only (repeatable): ${BROWSER_NAMES_HELP}`,
      collect,
      [],
    )
    .addHelpText('after', `${examples('bproxy host uninstall', 'bproxy host uninstall --browser edge')}`)
    .action(async (opts: { browser: string[] }, cmd: Command) => {
      const { hostUninstall } = await import('../host/host-commands');
      await hostUninstall(opts, globalOptionsOf(cmd, context.env).pretty);
    });
}

function statusCommand(context: CommandContext): Command {
  return withRegistrationFlags(
    new Command('status').description(
      'per browser: installed, registered, stale, and whether the host starts and answers',
    ),
    'report on',
    'run the host as this trusted extension when checking that it answers (default: the bproxy extension)',
  )
    .addHelpText(
      'after',
      `${examples('bproxy host status', 'bproxy host status --browser chrome --pretty')}
Runs each registered launcher once, as the browser would, and checks that it answers hello.
Output: {"ok":…,"browsers":[{"browser","installed","registered","stale","problems","answers"}],…}
`,
    )
    .action(async (opts: RegistrationFlags, cmd: Command) => {
      const { hostStatusCommand } = await import('../host/host-commands');
      await hostStatusCommand(opts, globalOptionsOf(cmd, context.env).pretty);
    });
}

export const HOST: CustomCommand = {
  build: (context) =>
    new Command('host')
      .description('register the native messaging host (com.bproxy.host) with your browsers')
      .addHelpText(
        'after',
        `${examples('bproxy host install', 'bproxy host status --pretty', 'bproxy host uninstall')}
The host lets the extension find (or start) the daemon and pair itself, with no code to type.
Registration is per user: a manifest in each browser's NativeMessagingHosts folder (Linux, macOS) or
a key under HKEY_CURRENT_USER (Windows), pointing at a launcher in BPROXY_HOME/host.
`,
      )
      .addCommand(installCommand(context))
      .addCommand(uninstallCommand(context))
      .addCommand(statusCommand(context)),
  reference: [
    {
      usage: '`bproxy host install\\|uninstall\\|status [--browser NAME]… [--extension-id ID]`',
      does: "the native host's registration with each browser (see [Native host](#native-host))",
    },
  ],
};

export const SETUP: CustomCommand = {
  build: (context) =>
    withRegistrationFlags(
      withTerminalCommand(
        new Command('setup').description(
          'one-time setup: build if needed, register the native host, say where to load the extension from',
        ),
      ),
      'set up',
    )
      .addHelpText(
        'after',
        `${examples('bproxy setup --pretty', 'npm run setup                                    # from a fresh clone')}
After it, load the extension (it prints the folder) and the browser pairs itself with the daemon.
`,
      )
      .action(async (opts: RegistrationFlags, cmd: Command) => {
        const { setup } = await import('../host/setup');
        await setup(opts, globalOptionsOf(cmd, context.env).pretty);
      }),
  reference: [
    {
      usage: '`bproxy setup [--browser NAME]… [--extension-id ID]`',
      does: 'one-time setup for your own browser: build if needed, register the native host, print where to load the extension from',
    },
  ],
};
