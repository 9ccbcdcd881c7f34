/**
 * The model providers the agent knows, as plain data the CLI's `agent config` and the settings
 * message share: whether each needs a key, whether it takes a base URL, and its default models (the
 * fast one for actions, the strong one for analysis — the seed's routing).
 */
export const PROVIDER_NAMES = ['anthropic', 'openai', 'copilot', 'claude-code'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface ProviderInfo {
  /** A key must be set before the provider is usable. */
  readonly needsKey: boolean;
  /** Takes a key when one is given (Copilot: a GitHub token instead of the logged-in user). */
  readonly takesKey: boolean;
  readonly takesBaseUrl: boolean;
  readonly models: { readonly fast: string; readonly strong: string };
  readonly describe: string;
}

export const PROVIDERS: Readonly<Record<ProviderName, ProviderInfo>> = {
  anthropic: {
    needsKey: true,
    takesKey: true,
    takesBaseUrl: true,
    models: { fast: 'claude-haiku-4-5', strong: 'claude-sonnet-4-5' },
    describe: 'the Anthropic Messages API (key from console.anthropic.com)',
  },
  openai: {
    // Local servers (Ollama, LM Studio, vLLM) take no key; a base URL makes the provider usable.
    needsKey: false,
    takesKey: true,
    takesBaseUrl: true,
    models: { fast: 'gpt-4.1-mini', strong: 'gpt-4.1' },
    describe: 'any OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, Ollama, LM Studio, vLLM)',
  },
  copilot: {
    needsKey: false,
    takesKey: true,
    takesBaseUrl: false,
    models: { fast: 'gpt-5-mini', strong: 'claude-sonnet-4.5' },
    describe:
      'GitHub Copilot through @github/copilot-sdk (the logged-in Copilot CLI user, or a GitHub token)',
  },
  'claude-code': {
    needsKey: false,
    takesKey: false,
    takesBaseUrl: false,
    models: { fast: 'sonnet', strong: 'opus' },
    describe: 'the Claude Code CLI (`claude -p`) on PATH, with its own login',
  },
};

export function isProviderName(value: string): value is ProviderName {
  return (PROVIDER_NAMES as readonly string[]).includes(value);
}
