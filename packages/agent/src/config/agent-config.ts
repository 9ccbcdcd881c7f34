/**
 * The agent's configuration in BPROXY_HOME: `agent/config.json` (provider, models, base URL, tool
 * switches) and `agent/keys.json` (provider keys). Both are written atomically with mode 0600 and read
 * through the state-file checks of `@bproxy/client/lifecycle` (a symlink, another owner or any group
 * or other permission is refused), so a key another user could read or plant is never used. Keys
 * never leave this module except to the provider that needs one: the settings message reports
 * `configured` only, and `bproxy agent config` prints "set" or "unset".
 */
import { readStateFile, writeStateFileAtomic, isLifecycleError } from '@bproxy/client/lifecycle';
import { z } from 'zod';
import { AgentError } from '../errors';
import type { AgentPaths } from '../paths';
import { ensureAgentDirs } from '../paths';
import { PROVIDER_NAMES, PROVIDERS, type ProviderName } from './provider-names';

const ModelName = z.string().min(1).max(128);

const ConfigFileSchema = z.strictObject({
  version: z.literal(1),
  provider: z.enum(PROVIDER_NAMES).nullable(),
  models: z.strictObject({ fast: ModelName, strong: ModelName }).partial(),
  baseUrl: z.string().url().max(2048).nullable(),
  tools: z.record(z.string().max(64), z.boolean()),
  /** One notes memory for every chat; absent or false: each chat keeps its own. The user's choice only. */
  sharedNotes: z.boolean().optional(),
});
export type AgentConfigFile = z.infer<typeof ConfigFileSchema>;

const KeysFileSchema = z.strictObject({
  version: z.literal(1),
  keys: z.partialRecord(z.enum(PROVIDER_NAMES), z.string().min(1).max(4096)),
});

/** The configuration as the agent uses it: defaults filled in. */
export interface AgentConfig {
  readonly provider: ProviderName | null;
  readonly models: { readonly fast: string; readonly strong: string };
  readonly baseUrl: string | null;
  /** The user's switches; a tool absent here is on. */
  readonly tools: Readonly<Record<string, boolean>>;
  /** Notes shared across chats (`bproxy agent config --shared-notes on`); off by default. */
  readonly sharedNotes: boolean;
}

const EMPTY: AgentConfigFile = { version: 1, provider: null, models: {}, baseUrl: null, tools: {} };

function readJson<T>(path: string, schema: z.ZodType<T>, what: string): T | null {
  let text: string | null;
  try {
    text = readStateFile(path);
  } catch (error) {
    if (isLifecycleError(error)) throw new AgentError('UNSAFE_STATE_FILE', error.message);
    throw error;
  }
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AgentError('LOCAL_ERROR', `${path} is not JSON; fix or remove it (${what})`);
  }
  const parsed = schema.safeParse(json);
  // The message names the field, never its value: keys.json holds secrets.
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path.join('.') ?? '';
    throw new AgentError(
      'LOCAL_ERROR',
      `${path} is not a valid ${what} file (at "${where}"); fix or remove it`,
    );
  }
  return parsed.data;
}

export function readConfigFile(paths: AgentPaths): AgentConfigFile {
  return readJson(paths.config, ConfigFileSchema, 'agent configuration') ?? EMPTY;
}

export function writeConfigFile(paths: AgentPaths, config: AgentConfigFile): void {
  ensureAgentDirs(paths);
  writeStateFileAtomic(paths.config, `${JSON.stringify(ConfigFileSchema.parse(config), null, 2)}\n`);
}

export function resolveConfig(file: AgentConfigFile): AgentConfig {
  const defaults = file.provider === null ? { fast: '', strong: '' } : PROVIDERS[file.provider].models;
  return {
    provider: file.provider,
    models: { fast: file.models.fast ?? defaults.fast, strong: file.models.strong ?? defaults.strong },
    baseUrl: file.baseUrl,
    tools: file.tools,
    sharedNotes: file.sharedNotes === true,
  };
}

export function readConfig(paths: AgentPaths): AgentConfig {
  return resolveConfig(readConfigFile(paths));
}

/** The key stored for `provider`, or null. */
export function readKey(paths: AgentPaths, provider: ProviderName): string | null {
  return readJson(paths.keys, KeysFileSchema, 'agent keys')?.keys[provider] ?? null;
}

/** Stores (or, with null, removes) the key of `provider`; other providers' keys stay. */
export function writeKey(paths: AgentPaths, provider: ProviderName, key: string | null): void {
  const current = readJson(paths.keys, KeysFileSchema, 'agent keys') ?? { version: 1 as const, keys: {} };
  const keys = { ...current.keys };
  if (key === null) delete keys[provider];
  else keys[provider] = key;
  ensureAgentDirs(paths);
  writeStateFileAtomic(paths.keys, `${JSON.stringify({ version: 1, keys })}\n`);
}

/** Whether the configured provider can run: chosen, and with its key or base URL where it needs one. */
export function isConfigured(config: AgentConfig, hasKey: boolean): boolean {
  if (config.provider === null) return false;
  if (config.provider === 'openai') return hasKey || config.baseUrl !== null;
  return !PROVIDERS[config.provider].needsKey || hasKey;
}
