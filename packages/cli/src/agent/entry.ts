/**
 * The entry of dist/agent.mjs, the bundle `bproxy agent` loads (kept apart so that the agent's code
 * never weighs on the CLI's other commands). `agentConfig` reads and writes BPROXY_HOME/agent's
 * config.json and keys.json through @bproxy/agent/config — the same files and checks the native host's
 * agent uses. It answers with a result object rather than throwing: this bundle's error classes are
 * not the CLI's.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkStateHome, isLifecycleError, resolveHome, type Env } from '@bproxy/client/lifecycle';
import {
  PROVIDERS,
  PROVIDER_SDKS,
  agentPaths,
  isAgentError,
  isConfigured,
  isProviderName,
  readConfig,
  readConfigFile,
  readKey,
  sdkInstallCommand,
  sdkInstalled,
  writeConfigFile,
  writeKey,
} from '@bproxy/agent/config';
import { BPROXY_VERSION, type ErrorCode } from '@bproxy/protocol/plain';

export interface AgentConfigChanges {
  readonly provider?: string;
  readonly fast?: string;
  readonly strong?: string;
  /** A URL, or '' to go back to the provider's default endpoint. */
  readonly baseUrl?: string;
  /** A key read from stdin or an environment variable by the command, never from argv. */
  readonly key?: string;
  readonly clearKey?: boolean;
  /** One notes memory for every chat; only the user sets it, here. */
  readonly sharedNotes?: boolean;
}

export type AgentConfigOutcome =
  | { readonly ok: true; readonly shown: Record<string, unknown> }
  | { readonly ok: false; readonly code: ErrorCode; readonly usage: boolean; readonly message: string };

function usage(message: string): AgentConfigOutcome {
  return { ok: false, code: 'USAGE', usage: true, message };
}

function validUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

type AgentPaths = ReturnType<typeof agentPaths>;
type ConfigFile = ReturnType<typeof readConfigFile>;
type ProviderName = keyof typeof PROVIDERS;

/** Why the provider cannot take `changes`, or undefined when it can. */
function refusal(provider: ProviderName, changes: AgentConfigChanges): AgentConfigOutcome | undefined {
  const info = PROVIDERS[provider];
  if (changes.baseUrl !== undefined && changes.baseUrl !== '' && !info.takesBaseUrl)
    return usage(`the ${provider} provider takes no --base-url`);
  if (changes.baseUrl !== undefined && changes.baseUrl !== '' && !validUrl(changes.baseUrl))
    return usage(`--base-url must be an http:// or https:// URL, got "${changes.baseUrl}"`);
  if ((changes.key !== undefined || changes.clearKey === true) && !info.takesKey)
    return usage(`the ${provider} provider takes no key (it uses its own login)`);
  return undefined;
}

/** Writes the provider's settings and key: `current` is the file with the notes setting applied. */
function writeProviderChanges(
  paths: AgentPaths,
  file: ConfigFile,
  current: ConfigFile,
  provider: ProviderName,
  changes: AgentConfigChanges,
): void {
  const switching = changes.provider !== undefined && changes.provider !== file.provider;
  writeConfigFile(paths, {
    ...current,
    provider,
    // Model names and the endpoint belong to a provider: switching starts from its defaults.
    models: {
      ...(switching ? {} : file.models),
      ...(changes.fast === undefined ? {} : { fast: changes.fast }),
      ...(changes.strong === undefined ? {} : { strong: changes.strong }),
    },
    baseUrl:
      changes.baseUrl !== undefined
        ? changes.baseUrl === ''
          ? null
          : changes.baseUrl
        : switching
          ? null
          : file.baseUrl,
  });
  if (changes.key !== undefined) writeKey(paths, provider, changes.key);
  if (changes.clearKey === true) writeKey(paths, provider, null);
}

/**
 * The native host's copy of this version (BPROXY_HOME/host/<version>/), which is what loads the
 * agent and so its SDK — through the links `bproxy setup` made — or null when none is installed.
 */
function hostCopy(home: string): string | null {
  const dir = join(home, 'host', BPROXY_VERSION);
  return existsSync(join(dir, 'native-host.mjs')) ? dir : null;
}

/**
 * Whether the provider's SDK is installed beside this CLI (`installed`, with the command that installs
 * it when not) and where the host's copy will load it from (`host`: that copy's folder and whether Node
 * finds the SDK from there; null when no copy of this version is installed). `setup` is the command to
 * run when the CLI has the SDK but the copy does not reach it (installed after `bproxy setup`).
 */
function sdkShown(provider: keyof typeof PROVIDER_SDKS | null, home: string): Record<string, unknown> | null {
  const sdk = provider === null ? null : PROVIDER_SDKS[provider];
  if (sdk === null) return null;
  const installed = sdkInstalled(sdk.name);
  const copy = hostCopy(home);
  const host = copy === null ? null : { dir: copy, installed: sdkInstalled(sdk.name, copy) };
  return {
    package: sdk.name,
    installed,
    host,
    ...(installed ? {} : { install: sdkInstallCommand(sdk) }),
    ...(installed && host !== null && !host.installed ? { setup: 'bproxy setup' } : {}),
  };
}

/** What `bproxy agent config` prints: the configuration, the key only as set or unset. */
function shownConfig(paths: AgentPaths, home: string): Record<string, unknown> {
  const config = readConfig(paths);
  const hasKey =
    config.provider !== null &&
    PROVIDERS[config.provider].takesKey &&
    readKey(paths, config.provider) !== null;
  return {
    provider: config.provider,
    models: config.models,
    baseUrl: config.baseUrl,
    key:
      config.provider === null || !PROVIDERS[config.provider].takesKey
        ? 'not used'
        : hasKey
          ? 'set'
          : 'unset',
    configured: isConfigured(config, hasKey),
    // The model SDKs are optional (not installed with bproxy): whether this provider's is, and how.
    sdk: sdkShown(config.provider, home),
    sharedNotes: config.sharedNotes,
    toolsOff: Object.entries(config.tools)
      .filter(([, on]) => !on)
      .map(([name]) => name),
    files: { config: paths.config, keys: paths.keys },
  };
}

/** Applies `changes` (the notes setting first, whatever else is refused) and shows the result. */
function applyChanges(env: Env, changes: AgentConfigChanges): AgentConfigOutcome {
  const home = resolveHome(env);
  if (!checkStateHome(home)) mkdirSync(home, { recursive: true, mode: 0o700 });
  const paths = agentPaths(home);
  const file = readConfigFile(paths);
  const provider = changes.provider ?? file.provider;
  const { sharedNotes, ...providerChanges } = changes;
  if (sharedNotes !== undefined) writeConfigFile(paths, { ...file, sharedNotes });
  const current = sharedNotes === undefined ? file : { ...file, sharedNotes };
  if (changes.provider !== undefined && !isProviderName(changes.provider))
    return usage(`--provider must be one of ${Object.keys(PROVIDERS).join(', ')}, got "${changes.provider}"`);
  const changing = Object.keys(providerChanges).length > 0;
  if (provider === null || !isProviderName(provider)) {
    if (changing) return usage('choose a provider first: --provider NAME');
  } else {
    const refused = refusal(provider, changes);
    if (refused !== undefined) return refused;
    if (changing) writeProviderChanges(paths, file, current, provider, changes);
  }
  return { ok: true, shown: shownConfig(paths, home) };
}

export function agentConfig(env: Env, changes: AgentConfigChanges): AgentConfigOutcome {
  try {
    return applyChanges(env, changes);
  } catch (error) {
    if (isAgentError(error)) return { ok: false, code: error.code, usage: false, message: error.message };
    if (isLifecycleError(error))
      return { ok: false, code: 'UNSAFE_STATE_FILE', usage: false, message: error.message };
    throw error;
  }
}

/**
 * What `bproxy doctor` reads: the configuration as `agent config` shows it, without writing anything
 * (no BPROXY_HOME is created); null when there is no BPROXY_HOME yet.
 */
export function agentStatus(env: Env): AgentConfigOutcome | null {
  const home = resolveHome(env);
  if (!checkStateHome(home)) return null;
  try {
    return { ok: true, shown: shownConfig(agentPaths(home), home) };
  } catch (error) {
    if (isAgentError(error)) return { ok: false, code: error.code, usage: false, message: error.message };
    if (isLifecycleError(error))
      return { ok: false, code: 'UNSAFE_STATE_FILE', usage: false, message: error.message };
    throw error;
  }
}
