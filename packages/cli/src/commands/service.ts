/**
 * `bproxy service start|stop|status`: the daemon's lifecycle. Output is the exact JSON of the
 * lifecycle contract on stdout; failures are plain sentences on stderr with a non-zero exit.
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { examples } from '../actions/grammar';
import { globalOptionsOf, type CommandContext, type CustomCommand } from './action-command';

const START_HELP = `${examples(
  'bproxy service start',
  'BPROXY_PORT=0 bproxy service start',
  'bproxy service start --browser none            # extension only',
  'bproxy service start --attach 9222             # a Chrome started with --remote-debugging-port=9222',
  'bproxy service start --attach ~/.config/chromium',
  'BPROXY_CDP_URL=wss://farm.example/?token=… bproxy service start',
  'BPROXY_CDP_URL=wss://farm.example/?token=… bproxy service start --cdp-mode per-session --cdp-max-browsers 10',
  'bproxy service start --allow-file-urls         # the launched Chromium may open file:// pages',
  'bproxy service start --allow-files ~/for-agents # agents may read and write files there too',
  'bproxy service start --profile shop            # logins kept in BPROXY_HOME/profiles/shop',
)}
URLs: agents may open http:, https: and about:blank only; anything else (file:, data:, view-source:,
javascript:, browser and extension pages) is URL_NOT_ALLOWED. --allow-file-urls (or
BPROXY_ALLOW_FILE_URLS=1) lets the launched browser, and only it, open file: URLs.
Files: every file an agent reads or writes (upload, pdf, state save/load, network har) is in its
session's folder, a folder in BPROXY_HOME/files.json ({"allow": ["/abs/dir"]}) or one given here with
--allow-files (refused on a start a client made) — never widened by an agent's request. A plain state
file name is kept in BPROXY_HOME/state.
Profiles: by default the launched browser starts on a fresh profile every time. --profile NAME (or
BPROXY_PROFILE) keeps its cookies and storage in BPROXY_HOME/profiles/NAME (0700), so a login done once
holds next time. Chromium lets one browser at a time use a profile: one in use is refused, said so.
Environment: BPROXY_HOME (default ~/.bproxy), BPROXY_PORT (default 9615, 0 = any free port),
BPROXY_LOG_LEVEL (fatal|error|warn|info|debug|trace|silent),
BPROXY_BROWSER (headless|headed|none), BPROXY_ATTACH, BPROXY_CDP_URL (keeps credentials out of argv),
BPROXY_CDP_MODE, BPROXY_CDP_MAX_BROWSERS, BPROXY_BROWSER_IDLE, BPROXY_ALLOW_FILE_URLS, BPROXY_PROFILE (like the options above),
CHROME_PATH (the browser binary to launch).
Extensions: the daemon accepts the bproxy extension and the ids in BPROXY_HOME/extensions.json, read
when it starts (add one with \`bproxy host install --extension-id ID\`).
The daemon stays until \`bproxy service stop\`; one that \`bproxy mcp\` started stops by itself after
BPROXY_IDLE_EXIT (default 15m, off: never) without agent requests.
Output: {"running":true,"pid":…,"port":…,"pairingCode":"ABCD-EFGH","pairingExpiresAt":…}
`;

interface StartOptions {
  browser?: 'headless' | 'headed' | 'none';
  attach?: string;
  cdpUrl?: string;
  cdpMode?: 'shared' | 'per-session';
  cdpMaxBrowsers?: string;
  browserIdle?: string;
  allowFileUrls?: boolean;
  allowFiles?: string[];
  profile?: string;
}

/** `service start`'s options, in the order its help lists them. */
function withStartOptions(command: Command): Command {
  return command
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
      'connect to a remote CDP endpoint (browserless, Selenium Grid, any DevTools URL); with a token, use BPROXY_CDP_URL',
    )
    .addOption(
      new Option(
        '--cdp-mode <mode>',
        'shared: one remote browser for every session; per-session: a browser farm gives each session its own',
      ).choices(['shared', 'per-session']),
    )
    .option('--cdp-max-browsers <n>', 'per-session: remote browsers open at once, at most (default 5)')
    .option(
      '--browser-idle <period>',
      'close a browser bproxy opened after this long without a tab (default 5m; off: never)',
    )
    .option(
      '--allow-file-urls',
      'let the browser bproxy launches (headless or headed) open file: URLs; off by default, never for your own Chrome or an attached or remote browser',
    )
    .option(
      '--allow-files <dir>',
      "let agents read and write files in this folder too (repeatable; besides each session's own and BPROXY_HOME/files.json)",
      (dir: string, dirs: string[] = []) => [...dirs, resolve(dir)],
    )
    .option(
      '--profile <name>',
      "keep the launched browser's logins in BPROXY_HOME/profiles/NAME across launches",
    );
}

function startCommand(context: CommandContext): Command {
  return withStartOptions(
    new Command('start').description(
      'start the daemon in the background and print its port and pairing code',
    ),
  )
    .addHelpText('after', START_HELP)
    .action(async (opts: StartOptions, cmd: Command) => {
      const { serviceStart } = await import('../service/service-commands');
      await serviceStart(
        {
          browser: opts.browser ?? null,
          attach: opts.attach ?? null,
          cdpUrl: opts.cdpUrl ?? null,
          cdpMode: opts.cdpMode ?? null,
          cdpMaxBrowsers: opts.cdpMaxBrowsers ?? null,
          browserIdle: opts.browserIdle ?? null,
          allowFileUrls: opts.allowFileUrls === true ? true : null,
          allowFiles: opts.allowFiles ?? [],
          profile: opts.profile ?? null,
        },
        globalOptionsOf(cmd, context.env).pretty,
        context.env,
      );
    });
}

function stopCommand(context: CommandContext): Command {
  return new Command('stop')
    .description('stop the daemon (drains requests in flight) and remove its transient files')
    .addHelpText('after', `${examples('bproxy service stop')}Output: {"running":false}\n`)
    .action(async (_opts: unknown, cmd: Command) => {
      const { serviceStop } = await import('../service/service-commands');
      await serviceStop(globalOptionsOf(cmd, context.env).pretty, context.env);
    });
}

function statusCommand(context: CommandContext): Command {
  return new Command('status')
    .description('whether the daemon of BPROXY_HOME is running, and on which port')
    .addHelpText(
      'after',
      `${examples('bproxy service status')}Output: {"running":true,"pid":…,"port":…,"version":…,"protocolVersion":…} or {"running":false,…}\n`,
    )
    .action(async (_opts: unknown, cmd: Command) => {
      const { serviceStatus } = await import('../service/service-commands');
      await serviceStatus(globalOptionsOf(cmd, context.env).pretty, context.env);
    });
}

export const SERVICE: CustomCommand = {
  build: (context) =>
    new Command('service')
      .description('start, stop and inspect the daemon')
      .addHelpText('after', examples('bproxy service start', 'bproxy service status', 'bproxy service stop'))
      .addCommand(startCommand(context))
      .addCommand(stopCommand(context))
      .addCommand(statusCommand(context)),
  reference: [
    {
      usage:
        '`bproxy service start\\|stop\\|status` (start: `[--browser headless\\|headed\\|none] [--attach TARGET] [--cdp-url URL]`)',
      does: 'run the daemon (detached); print `{"running":true,"pid":…,"port":…,"pairingCode":"ABCD-EFGH","pairingExpiresAt":…}`',
    },
  ],
};
