/**
 * `bproxy service start|stop|status`: the daemon's lifecycle. Output is the exact JSON of the
 * lifecycle contract on stdout; failures are plain sentences on stderr with a non-zero exit.
 */
import { Command, Option } from 'commander';
import { examples, globalOptionsOf, type CommandContext } from './action-command';

export function serviceCommand(context: CommandContext): Command {
  const service = new Command('service')
    .description('start, stop and inspect the daemon')
    .addHelpText('after', examples('bproxy service start', 'bproxy service status', 'bproxy service stop'));

  service
    .command('start')
    .description('start the daemon in the background and print its port and pairing code')
    .addOption(
      new Option('--browser <mode>', 'browser launched on first use when no extension is connected').choices([
        'headless',
        'headed',
        'none',
      ]),
    )
    .option('--attach <target>', 'attach to a running Chrome: its debugging port, user-data-dir or ws:// URL')
    .option(
      '--cdp-url <url>',
      'connect to a remote CDP endpoint (browserless, Selenium Grid, any DevTools URL)',
    )
    .addHelpText(
      'after',
      `${examples(
        'bproxy service start',
        'BPROXY_PORT=0 bproxy service start',
        'bproxy service start --browser none            # extension only',
        'bproxy service start --attach 9222             # a Chrome started with --remote-debugging-port=9222',
        'bproxy service start --attach ~/.config/chromium',
        'BPROXY_CDP_URL=wss://farm.example/?token=… bproxy service start',
      )}
Environment: BPROXY_HOME (default ~/.bproxy), BPROXY_PORT (default 9615, 0 = any free port),
BPROXY_LOG_LEVEL (fatal|error|warn|info|debug|trace|silent), BPROXY_EXTENSION_ID,
BPROXY_BROWSER (headless|headed|none), BPROXY_ATTACH, BPROXY_CDP_URL (keeps credentials out of argv),
CHROME_PATH (the browser binary to launch).
Output: {"running":true,"pid":…,"port":…,"pairingCode":"ABCD-EFGH","pairingExpiresAt":…}
`,
    )
    .action(
      async (
        opts: { browser?: 'headless' | 'headed' | 'none'; attach?: string; cdpUrl?: string },
        cmd: Command,
      ) => {
        const { serviceStart } = await import('../service/service-commands');
        const browser = {
          browser: opts.browser ?? null,
          attach: opts.attach ?? null,
          cdpUrl: opts.cdpUrl ?? null,
        };
        await serviceStart(browser, globalOptionsOf(cmd, context.env).pretty, context.env);
      },
    );

  service
    .command('stop')
    .description('stop the daemon (drains requests in flight) and remove its transient files')
    .addHelpText('after', `${examples('bproxy service stop')}Output: {"running":false}\n`)
    .action(async (_opts: unknown, cmd: Command) => {
      const { serviceStop } = await import('../service/service-commands');
      await serviceStop(globalOptionsOf(cmd, context.env).pretty, context.env);
    });

  service
    .command('status')
    .description('whether the daemon of BPROXY_HOME is running, and on which port')
    .addHelpText(
      'after',
      `${examples('bproxy service status')}Output: {"running":true,"pid":…,"port":…,"version":…,"protocolVersion":…} or {"running":false,…}\n`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { serviceStatus } = await import('../service/service-commands');
      await serviceStatus(globalOptionsOf(cmd, context.env).pretty, context.env);
    });
  return service;
}
