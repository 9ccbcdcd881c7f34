/**
 * From what the tool asked (its Chrome switches) and what the user configured (the environment) to
 * one plan: the transport, the lifecycle, headless or not, and how to get hold of the real browser.
 * Everything that can be refused is refused here, before a browser is touched.
 */
import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { applyArgPolicy, type ProfileOwner } from './args/arg-policy';
import type { ToolArgs } from './args/tool-args';
import type { BridgeConfig } from './config';
import {
  attachOrLaunch,
  connectRemote,
  type AcquiredBrowser,
  type LaunchObserver,
} from './downstream/attach-or-launch';
import type { BrowserHost } from './downstream/browser-host';
import { createHost } from './downstream/create-host';
import type { TransportMode } from './lifecycle/browser-keeper';

export interface BridgePlan {
  readonly transportMode: TransportMode;
  /** The tool asked for a DevTools endpoint on this port too (0: any). */
  readonly endpointPort: number | undefined;
  readonly headless: boolean;
  readonly host: BrowserHost | undefined;
  readonly executablePath: string | undefined;
  readonly userDataDir: string | undefined;
  /** Whose profile a launched browser runs on (undefined: a remote endpoint, never launched). */
  readonly profileOwner: ProfileOwner | undefined;
  /** What the argument policy lets through to a browser the bridge launches, and what it drops. */
  readonly forwardedArgs: readonly string[];
  readonly droppedArgs: readonly string[];
  readonly acquire: (observer?: LaunchObserver) => Promise<AcquiredBrowser>;
}

export class PlanError extends Error {
  override readonly name = 'PlanError';
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export async function makePlan(
  args: ToolArgs,
  config: BridgeConfig,
  env: NodeJS.ProcessEnv,
): Promise<BridgePlan> {
  if (!args.pipe && args.port === undefined) {
    throw new PlanError(
      'nothing to serve: a tool starts the bridge with --remote-debugging-pipe (and fds 3/4) or ' +
        '--remote-debugging-port=PORT, as it would start Chrome',
    );
  }
  const transportMode: TransportMode = args.pipe ? 'pipe' : 'ws';
  const headless = config.headless ?? args.headless;
  const common = { transportMode, endpointPort: args.port, headless };

  if (config.downstream === 'remote') {
    const cdpUrl = config.cdpUrl ?? '';
    return {
      ...common,
      host: undefined,
      executablePath: undefined,
      userDataDir: undefined,
      profileOwner: undefined,
      forwardedArgs: [],
      droppedArgs: args.rest.filter((arg) => arg.startsWith('-')),
      acquire: () => connectRemote(cdpUrl, config.launchTimeoutMs),
    };
  }
  const choice = createHost(config, env);
  if (choice === undefined) throw new PlanError('no browser host');
  const self = process.argv[1];
  if (
    choice.host.kind === 'local' &&
    (basename(choice.executablePath).startsWith('bproxy-bridge') ||
      (self !== undefined && realpathOr(choice.executablePath) === realpathOr(self)))
  ) {
    throw new PlanError(
      `the browser to relay to is the bridge itself (${choice.executablePath}): set BPROXY_BRIDGE_CHROME to a real Chrome`,
    );
  }
  // The tool's own profile only means something on this machine; Windows Chrome gets a Windows one.
  // Only that profile is the tool's: the configured one and the bridge's default are the user's.
  const toolsProfile =
    config.userDataDir === undefined && choice.host.kind === 'local' && args.userDataDir !== undefined
      ? resolve(args.userDataDir)
      : undefined;
  const profileOwner: ProfileOwner = toolsProfile === undefined ? 'user' : 'tool';
  const userDataDir = config.userDataDir ?? toolsProfile ?? (await choice.host.defaultProfile());
  const { forwarded, dropped } = applyArgPolicy(args.rest, profileOwner);
  const target = {
    host: choice.host,
    executablePath: choice.executablePath,
    userDataDir,
    headless,
    forwardedArgs: forwarded,
    timeoutMs: config.launchTimeoutMs,
  };
  return {
    ...common,
    host: choice.host,
    executablePath: choice.executablePath,
    userDataDir,
    profileOwner,
    forwardedArgs: forwarded,
    droppedArgs: dropped,
    acquire: (observer) => attachOrLaunch(target, observer),
  };
}
