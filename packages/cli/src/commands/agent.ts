/**
 * `bproxy agent config`: the in-browser agent's provider, models, endpoint and key, in
 * BPROXY_HOME/agent. The work is done by its own bundle (dist/agent.mjs), imported only when this
 * command runs. A key is never taken from the command line, where other local users can read it: it
 * comes from stdin (`--key-stdin`) or from an environment variable named by `--key-env`.
 */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import type { ErrorCode } from '@bproxy/protocol/plain';
import { CliError, EXIT, usageError } from '../cli-error';
import { printJson } from '../output';
import { besideCli } from '../runtime';
import { examples } from '../actions/grammar';
import type { CustomCommand } from './action-command';

interface AgentModule {
  agentConfig(
    env: Readonly<Record<string, string | undefined>>,
    changes: Record<string, string | boolean>,
  ):
    | { ok: true; shown: Record<string, unknown> }
    | { ok: false; code: ErrorCode; usage: boolean; message: string };
}

function isAgentModule(value: unknown): value is AgentModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { agentConfig?: unknown }).agentConfig === 'function'
  );
}

interface ConfigOptions {
  provider?: string;
  fast?: string;
  strong?: string;
  baseUrl?: string;
  keyStdin?: boolean;
  keyEnv?: string;
  clearKey?: boolean;
  sharedNotes?: string;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The key the user gave, trimmed: from stdin or a named variable, never argv. */
async function keyOf(opts: ConfigOptions): Promise<string | undefined> {
  if (opts.keyStdin === true && opts.keyEnv !== undefined)
    throw usageError('give the key one way: --key-stdin or --key-env');
  let key: string | undefined;
  if (opts.keyStdin === true) key = (await readStdin()).trim();
  if (opts.keyEnv !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.keyEnv))
      throw usageError(`--key-env takes the NAME of an environment variable, got "${opts.keyEnv}"`);
    key = process.env[opts.keyEnv]?.trim();
    if (key === undefined || key === '')
      throw usageError(`the environment variable ${opts.keyEnv} is not set`);
  }
  if (key === '') throw usageError('the key read from stdin is empty');
  if (key !== undefined && (key.length > 4096 || /\s/.test(key)))
    throw usageError('the key must be one word of at most 4096 characters');
  return key;
}

const CONFIG_HELP = `${examples(
  'bproxy agent config                                             # show (the key only as set/unset)',
  'bproxy agent config --provider anthropic --key-stdin < key.txt',
  'bproxy agent config --provider openai --key-env OPENAI_API_KEY --fast gpt-4.1-mini --strong gpt-4.1',
  'bproxy agent config --provider openai --base-url https://openrouter.ai/api/v1 --key-env OPENROUTER_API_KEY',
  'bproxy agent config --provider openai --base-url http://127.0.0.1:11434/v1 --fast llama3.1 --strong qwen2.5',
  'bproxy agent config --provider copilot                          # the Copilot CLI login, or --key-env GH_TOKEN',
  'bproxy agent config --provider claude-code                      # `claude` on PATH, with its own login',
  "bproxy agent config --shared-notes on                           # notes shared by every chat (default: each chat's own)",
)}
Files: BPROXY_HOME/agent/config.json and agent/keys.json (0600; refused when others can read them).
Keys never go to the browser: the extension only learns whether the agent is configured.
The model SDKs are not installed with bproxy: "sdk" says whether the provider's is, and the command
that installs it beside bproxy (e.g. npm i -g openai@…) when it is not.
`;

/** The agent's own bundle, next to this one. */
async function loadAgentModule(): Promise<AgentModule> {
  const bundle = besideCli('agent.mjs');
  if (!existsSync(bundle)) throw usageError(`the agent bundle is missing (${bundle})`, 'Run `npm run build`');
  const mod: unknown = await import(pathToFileURL(bundle).href);
  if (!isAgentModule(mod))
    throw usageError('the agent bundle does not export agentConfig', 'Run `npm run build`');
  return mod;
}

/** The changes the options ask for (the key already read). */
function changesOf(opts: ConfigOptions, key: string | undefined): Record<string, string | boolean> {
  const changes: Record<string, string | boolean> = {};
  if (opts.provider !== undefined) changes.provider = opts.provider;
  if (opts.fast !== undefined) changes.fast = opts.fast;
  if (opts.strong !== undefined) changes.strong = opts.strong;
  if (opts.baseUrl !== undefined) changes.baseUrl = opts.baseUrl;
  if (key !== undefined) changes.key = key;
  if (opts.clearKey === true) changes.clearKey = true;
  if (opts.sharedNotes !== undefined) {
    if (opts.sharedNotes !== 'on' && opts.sharedNotes !== 'off')
      throw usageError(`--shared-notes takes on or off, got "${opts.sharedNotes}"`);
    changes.sharedNotes = opts.sharedNotes === 'on';
  }
  return changes;
}

async function runConfig(opts: ConfigOptions): Promise<void> {
  const mod = await loadAgentModule();
  const key = await keyOf(opts);
  const outcome = mod.agentConfig(process.env, changesOf(opts, key));
  if (!outcome.ok)
    throw outcome.usage
      ? usageError(outcome.message, 'Run `bproxy agent config --help`')
      : new CliError(outcome.code, outcome.message, EXIT.failure);
  const sdk = outcome.shown.sdk;
  if (sdk !== null && typeof sdk === 'object' && 'install' in sdk && typeof sdk.install === 'string')
    process.stderr.write(
      `bproxy: this provider's SDK is not installed beside bproxy; run: ${sdk.install}, then bproxy setup (for the native host)\n`,
    );
  else if (sdk !== null && typeof sdk === 'object' && 'setup' in sdk && 'host' in sdk)
    // The CLI finds it, but the native host's copy, which is what loads the agent, has no link to it.
    process.stderr.write(
      `bproxy: this provider's SDK is installed, but the native host's copy (${JSON.stringify((sdk.host as { dir?: unknown } | null)?.dir)}) does not reach it; run: bproxy setup\n`,
    );
  printJson(outcome.shown, true);
}

function configCommand(): Command {
  return new Command('config')
    .description("show or set the in-browser agent's provider, models, endpoint and key")
    .option(
      '--provider <name>',
      'anthropic | openai (any OpenAI-compatible endpoint) | copilot | claude-code',
    )
    .option('--fast <model>', 'the model for action-like messages (clicks, navigation, forms)')
    .option('--strong <model>', 'the model for analysis (what, why, how, summarize, …)')
    .option('--base-url <url>', 'the endpoint (OpenRouter, Ollama, LM Studio, vLLM); "" for the default')
    .option('--key-stdin', 'read the key from stdin')
    .option('--key-env <NAME>', 'read the key from the environment variable NAME')
    .option('--clear-key', "remove the provider's stored key")
    .option(
      '--shared-notes <on|off>',
      "on: one notes memory for all chats; off (default): each chat's notes are its own",
    )
    .addHelpText('after', CONFIG_HELP)
    .action(runConfig);
}

function agentCommand(): Command {
  return new Command('agent')
    .description('the agent in your browser (run by the native host): `agent config` sets its model')
    .addCommand(configCommand());
}

export const AGENT: CustomCommand = { build: agentCommand, reference: [] };
