/**
 * Which provider serves a configuration, built on first use and kept while the configuration (the
 * provider, its base URL and key) stays the same. Each provider's SDK is imported only when that
 * provider is chosen, so the host never loads the others. Tests replace any factory.
 */
import type { AgentConfig } from '../config/agent-config';
import type { ProviderName } from '../config/provider-names';
import { missingSdkMessage, PROVIDER_SDKS } from '../config/sdk';
import { AgentError } from '../errors';
import type { AgentLogger } from '../logger';
import type { AgentPaths } from '../paths';
import type { Env } from '@bproxy/client';
import { runLoop } from './loop';
import type { ChatModel, Provider } from './provider';

export interface ProviderContext {
  readonly config: AgentConfig;
  readonly key: string | null;
  readonly paths: AgentPaths;
  readonly env: Env;
  readonly logger: AgentLogger;
  /** One model call's limit. */
  readonly modelTimeoutMs: number;
  /** How Claude Code starts bproxy's MCP server: argv of `bproxy` (e.g. [node, .../bproxy.mjs]). */
  readonly bproxyCommand: readonly string[];
}

export type ProviderFactory = (context: ProviderContext) => Promise<Provider>;

export function loopProvider(model: ChatModel): Provider {
  return { runTurn: (request) => runLoop(model, request), close: async () => {} };
}

/**
 * Imports a provider's module; when the SDK it imports is not installed (the SDKs are optional, see
 * config/sdk.ts), the user reads which package to install and how, as AGENT_NOT_CONFIGURED.
 */
export async function loadProviderModule<T>(provider: ProviderName, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const sdk = PROVIDER_SDKS[provider];
    if (
      sdk !== null &&
      error instanceof Error &&
      'code' in error &&
      error.code === 'ERR_MODULE_NOT_FOUND' &&
      error.message.includes(`'${sdk.name}'`)
    )
      throw new AgentError('AGENT_NOT_CONFIGURED', missingSdkMessage(provider, sdk));
    throw error;
  }
}

export const DEFAULT_PROVIDERS: Readonly<Record<ProviderName, ProviderFactory>> = {
  async anthropic(context) {
    const { AnthropicModel } = await loadProviderModule('anthropic', () => import('./anthropic'));
    return loopProvider(
      new AnthropicModel({
        key: context.key,
        baseUrl: context.config.baseUrl,
        timeoutMs: context.modelTimeoutMs,
      }),
    );
  },
  async openai(context) {
    const { OpenAiModel } = await loadProviderModule('openai', () => import('./openai'));
    return loopProvider(
      new OpenAiModel({
        key: context.key,
        baseUrl: context.config.baseUrl,
        timeoutMs: context.modelTimeoutMs,
      }),
    );
  },
  async copilot(context) {
    const { CopilotProvider } = await loadProviderModule('copilot', () => import('./copilot'));
    return new CopilotProvider({
      gitHubToken: context.key,
      workingDirectory: context.paths.files,
      env: context.env,
      logger: context.logger,
    });
  },
  async 'claude-code'(context) {
    const { ClaudeCodeProvider } = await import('./claude-code');
    return new ClaudeCodeProvider({
      env: context.env,
      workingDirectory: context.paths.files,
      bproxyCommand: context.bproxyCommand,
      logger: context.logger,
    });
  },
};
