/**
 * `bproxy bridge`: a stand-in Chrome for CDP tools. The bridge lives in its own bundle next to this
 * one (dist/bridge.mjs), imported only when this command runs; tools are given the `bproxy-bridge`
 * executable beside it as their browser (`--print-path`). The compiled binary has no Node inside, so
 * there it runs that executable with `node`, handing over the tool's pipe (fds 3 and 4).
 */
import { spawn } from 'node:child_process';
import { existsSync, fstatSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { examples } from '../actions/grammar';
import { usageError } from '../cli-error';
import { writeText } from '../output';
import { IS_BUN, besideCli } from '../runtime';
import type { CustomCommand } from './action-command';

interface BridgeModule {
  bridgeMain(argv: readonly string[]): Promise<never>;
}

function isBridgeModule(value: unknown): value is BridgeModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { bridgeMain?: unknown }).bridgeMain === 'function'
  );
}

function fdOpen(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}

function runWithNode(executable: string, switches: readonly string[]): Promise<void> {
  const node =
    process.env.BPROXY_NODE !== undefined && process.env.BPROXY_NODE !== ''
      ? process.env.BPROXY_NODE
      : 'node';
  const stdio = fdOpen(3) && fdOpen(4) ? [0, 1, 2, 3, 4] : [0, 1, 2];
  const child = spawn(node, [executable, ...switches], { stdio });
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      process.exitCode = code ?? 1;
      resolve();
    });
    child.once('error', (error) => {
      process.stderr.write(
        `bproxy bridge: cannot run node (${error.message}); install Node.js >= 20 or set BPROXY_NODE\n`,
      );
      process.exitCode = 1;
      resolve();
    });
  });
}

/**
 * The file tools are given as their Chrome: the bproxy-bridge script, or on Windows, which runs no
 * extensionless script, the bproxy-bridge.cmd beside it (built with it).
 */
export function bridgeExecutableName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'bproxy-bridge.cmd' : 'bproxy-bridge';
}

function bridgeCommand(): Command {
  return new Command('bridge')
    .description('a stand-in Chrome for CDP tools that relays to a real browser and survives its loss')
    .argument('[chrome-switches...]', 'the switches a tool passes to its Chrome (--remote-debugging-pipe, …)')
    .option('--print-path', 'print the path of the bproxy-bridge executable, to give tools as their Chrome')
    .allowUnknownOption()
    .allowExcessArguments()
    .addHelpText(
      'after',
      `${examples(
        'npx chrome-devtools-mcp --executablePath "$(bproxy bridge --print-path)"',
        'npx @playwright/mcp --executable-path "$(bproxy bridge --print-path)"',
        'bproxy bridge --remote-debugging-port=9333     # an endpoint for --cdp-endpoint / --wsEndpoint',
      )}
Tools start it as they start Chrome: with --remote-debugging-pipe (fds 3/4) or --remote-debugging-port.
The real browser comes from the environment: BPROXY_BRIDGE_BROWSER (local | wsl | remote),
BPROXY_BRIDGE_CHROME, BPROXY_BRIDGE_USER_DATA_DIR, BPROXY_BRIDGE_CDP_URL, BPROXY_BRIDGE_HEADLESS,
BPROXY_BRIDGE_TOKEN. The README's "CDP bridge" section has the recipes and the argument policy.
Logs: BPROXY_HOME/logs/bridge-YYYY-MM-DD.log.
`,
    )
    .action(async (switches: string[], opts: { printPath?: boolean }) => {
      const executable = besideCli('bproxy-bridge');
      if (!existsSync(executable))
        throw usageError(`the bridge is missing (${executable})`, 'Run `npm run build`');
      if (opts.printPath === true) {
        writeText(besideCli(bridgeExecutableName()));
        return;
      }
      if (IS_BUN) return runWithNode(executable, switches);
      const bundle = besideCli('bridge.mjs');
      const mod: unknown = await import(pathToFileURL(bundle).href);
      if (!isBridgeModule(mod))
        throw usageError('the bridge bundle does not export bridgeMain', 'Run `npm run build`');
      await mod.bridgeMain(switches);
    });
}

export const BRIDGE: CustomCommand = {
  build: bridgeCommand,
  reference: [
    {
      usage: '`bproxy bridge [--print-path] [CHROME SWITCHES…]`',
      does: 'a stand-in Chrome for CDP tools (see [CDP bridge](#cdp-bridge))',
    },
  ],
};
