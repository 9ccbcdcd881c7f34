/**
 * The model SDKs are optional: the `bproxy` package declares them as optional peer dependencies, so
 * `npm i -g bproxy` installs none of them (the Copilot runtime alone weighs over 100 MB) and a user
 * installs the one their provider needs beside bproxy (`npm i -g openai@…`), where the agent's
 * bundle finds it (Node looks in every node_modules folder above the bundle, the global one included).
 * The native host runs its own copy in BPROXY_HOME/host/<version>/, which reaches the SDKs through links
 * made when it is installed: after installing an SDK, `bproxy setup` links it.
 * The ranges here are the package's peerDependencies; packages/agent/test/config/sdk.test.ts checks they agree.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProviderName } from './provider-names';

export interface SdkPackage {
  readonly name: string;
  /** The version range the bproxy package declares for it. */
  readonly range: string;
}

/** The SDK each provider imports, or null when it needs none (Claude Code runs the `claude` program). */
export const PROVIDER_SDKS: Readonly<Record<ProviderName, SdkPackage | null>> = {
  anthropic: { name: '@anthropic-ai/sdk', range: '^1.12.0' },
  openai: { name: 'openai', range: '^7.57.0' },
  copilot: { name: '@github/copilot-sdk', range: '^1.0.14' },
  'claude-code': null,
};

/** The one command that installs `sdk` where an installed bproxy finds it. */
export function sdkInstallCommand(sdk: SdkPackage): string {
  return `npm i -g ${sdk.name}@${sdk.range}`;
}

/** The sentence a user reads when `provider`'s SDK is not installed. */
export function missingSdkMessage(provider: ProviderName, sdk: SdkPackage): string {
  return `the ${provider} provider needs the ${sdk.name} package, which is not installed beside bproxy: run \`${sdkInstallCommand(sdk)}\`, then \`bproxy setup\` (the native host's copy links the SDKs found when it is installed)`;
}

/**
 * Whether `name` is in a node_modules folder at or above `from` (this module's folder by default: the
 * bundle's, which is where the agent's provider chunks resolve their SDK from) — Node's own lookup.
 */
export function sdkInstalled(name: string, from: string = dirname(fileURLToPath(import.meta.url))): boolean {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}
