/**
 * The host the configuration names: this machine, or Windows through WSL. A remote endpoint has none.
 */
import { findChrome } from '@bproxy/cdp/wire';
import type { BridgeConfig } from '../config';
import type { BrowserHost } from './browser-host';
import { LocalHost } from './local-host';
import { WslHost } from './wsl-host';

export interface HostChoice {
  readonly host: BrowserHost;
  readonly executablePath: string;
}

export class NoBrowserError extends Error {
  override readonly name = 'NoBrowserError';
}

export function createHost(
  config: Pick<BridgeConfig, 'downstream' | 'executablePath' | 'home' | 'powershell' | 'wslHost'>,
  env: NodeJS.ProcessEnv,
): HostChoice | undefined {
  if (config.downstream === 'remote') return undefined;
  if (config.downstream === 'wsl') {
    const executablePath = config.executablePath ?? '';
    return {
      host: new WslHost({ powershell: config.powershell, executablePath, wslHost: config.wslHost }),
      executablePath,
    };
  }
  const executablePath = config.executablePath ?? findChrome({ env });
  if (executablePath === undefined) {
    throw new NoBrowserError(
      'no Chrome, Chromium or Edge found on this machine: install one or set BPROXY_BRIDGE_CHROME to its binary',
    );
  }
  return { host: new LocalHost({ executablePath, home: config.home, env }), executablePath };
}
