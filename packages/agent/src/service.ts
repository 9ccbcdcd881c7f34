/**
 * The agent as the native host runs it: one service per host process, fed every chat and settings
 * message of the port, answering through the `emit` it is handed. It owns the runners (one per chat),
 * the tool box, the chat store, the configuration and the provider built from it. Nothing here
 * throws into the host: every failure becomes an `error` message with a catalogue code.
 */
import type { Env } from '@bproxy/client';
import type { ExtensionToHost } from '@bproxy/protocol';
import {
  isConfigured,
  readConfig,
  readConfigFile,
  readKey,
  writeConfigFile,
  type AgentConfig,
} from './config/agent-config';
import { PROVIDERS } from './config/provider-names';
import { SETTINGS_CHANGED, staleFields } from './config/stale-settings';
import type { ProviderName } from './config/provider-names';
import { AgentError, clip, isAgentError } from './errors';
import { silentLogger, type AgentLogger } from './logger';
import { agentPaths, ensureAgentDirs, type AgentPaths } from './paths';
import type { Provider } from './providers/provider';
import { DEFAULT_PROVIDERS, type ProviderFactory } from './providers/registry';
import { ChatRunner } from './runner';
import { ChatStore } from './store/chat-store';
import type { ActionCaller } from './tools/browser-tools';
import { ToolBox } from './tools/toolbox';
import type { Emit, TurnSetup } from './turn';

/** The port messages the agent answers; `isAgentMessage` tells them from the host's own. */
export type AgentMessage = Extract<
  ExtensionToHost,
  { type: 'user' | 'stop' | 'chat.history' | 'settings.get' | 'settings.set' }
>;

const AGENT_TYPES: ReadonlySet<string> = new Set([
  'user',
  'stop',
  'chat.history',
  'settings.get',
  'settings.set',
]);

export function isAgentMessage(message: ExtensionToHost): message is AgentMessage {
  return AGENT_TYPES.has(message.type);
}

export interface AgentLimits {
  /** Model calls per turn (tool calls, for providers that loop themselves). Default 30. */
  readonly maxSteps: number;
  /** One model call. Default 120 s. */
  readonly modelTimeoutMs: number;
  /** Characters of earlier conversation given to the model. Default 120,000. */
  readonly historyChars: number;
  /** How long close() waits for running turns to end. Default 5 s. */
  readonly closeTimeoutMs: number;
  /** One browser tool call; default the catalogue's deadline of each tool plus 10 s. */
  readonly toolDeadlineMs?: number;
}

export interface AgentServiceOptions {
  /** BPROXY_HOME (absolute): the agent keeps its files in `agent/` under it. */
  readonly home: string;
  /** The daemon client (`new DaemonClient({ keepAlive: true, start })`), or anything with its `call`. */
  readonly client: ActionCaller;
  /** host.log's writer; default: nothing is logged. */
  readonly logger?: AgentLogger;
  /** Monotonic enough for timings and transcript times; default Date.now. */
  readonly clock?: () => number;
  /** Replaces a provider's factory (tests; a host embedding its own). */
  readonly providers?: Partial<Record<ProviderName, ProviderFactory>>;
  /** The environment providers spawn processes with (PATH for `claude`); default process.env. */
  readonly env?: Env;
  /** argv that runs `bproxy` (Claude Code starts `bproxy mcp --session ID` with it); default ['bproxy']. */
  readonly bproxyCommand?: readonly string[];
  readonly limits?: Partial<AgentLimits>;
}

export interface AgentService {
  /** Handles one message; the answers (and a chat's stream) go to `emit`. Never throws. */
  handle(message: AgentMessage, emit: Emit): void;
  /** Stops every running turn (their tool calls get results), writes every chat, ends providers. */
  close(): Promise<void>;
}

const MAX_LIVE_RUNNERS = 50;

const DEFAULT_LIMITS: AgentLimits = {
  maxSteps: 30,
  modelTimeoutMs: 120_000,
  historyChars: 120_000,
  closeTimeoutMs: 5_000,
};

export function createAgentService(options: AgentServiceOptions): AgentService {
  return new Service(options);
}

class Service implements AgentService {
  private readonly paths: AgentPaths;
  private readonly logger: AgentLogger;
  private readonly clock: () => number;
  private readonly limits: AgentLimits;
  private readonly toolbox: ToolBox;
  private readonly store: ChatStore;
  private readonly runners = new Map<string, ChatRunner>();
  private readonly factories: Readonly<Record<ProviderName, ProviderFactory>>;
  /** The provider of the current configuration, and what it was built from. */
  private provider: { signature: string; name: ProviderName; built: Promise<Provider> } | null = null;
  private callSeq = 0;
  private closed = false;

  constructor(private readonly options: AgentServiceOptions) {
    this.paths = agentPaths(options.home);
    ensureAgentDirs(this.paths);
    this.logger = options.logger ?? silentLogger;
    this.clock = options.clock ?? Date.now;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.toolbox = new ToolBox(options.client, this.paths, this.clock, this.limits.toolDeadlineMs);
    this.store = new ChatStore(this.paths.chats, this.logger);
    this.factories = { ...DEFAULT_PROVIDERS, ...options.providers };
  }

  handle(message: AgentMessage, emit: Emit): void {
    try {
      if (this.closed) throw new AgentError('SHUTTING_DOWN', 'the agent is shutting down');
      switch (message.type) {
        case 'user':
          this.runner(message.chatId).submit(message, emit);
          return;
        case 'stop':
          this.runners.get(message.chatId)?.stop(emit);
          return;
        case 'chat.history':
          this.runner(message.chatId).history(message.id, emit);
          return;
        case 'settings.get':
          emit(this.settings(message.id));
          return;
        case 'settings.set':
          this.setSettings(message);
          emit(this.settings(message.id));
          return;
      }
    } catch (error) {
      const failure = isAgentError(error)
        ? error
        : new AgentError('INTERNAL_ERROR', 'the agent failed unexpectedly');
      if (!isAgentError(error))
        this.logger.error('handle_failed', {
          type: message.type,
          error: error instanceof Error ? error.name : 'unknown',
        });
      emit({
        type: 'error',
        ...('id' in message ? { id: message.id } : {}),
        ...('chatId' in message ? { chatId: message.chatId } : {}),
        code: failure.code,
        message: clip(failure.message),
      });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.runners.values()].map((runner) => runner.close(this.limits.closeTimeoutMs)));
    const provider = this.provider;
    this.provider = null;
    if (provider !== null) await provider.built.then((p) => p.close()).catch(() => {});
    this.logger.info('agent_closed', { chats: this.runners.size });
  }

  private runner(chatId: string): ChatRunner {
    let runner = this.runners.get(chatId);
    if (runner === undefined) {
      // Idle chats are on disk already; keep the memory bounded however many chats a browser opens.
      if (this.runners.size >= MAX_LIVE_RUNNERS)
        for (const [id, idle] of this.runners) if (!idle.busy) this.runners.delete(id);
      runner = new ChatRunner(chatId, {
        store: this.store,
        toolbox: this.toolbox,
        logger: this.logger,
        clock: this.clock,
        maxSteps: this.limits.maxSteps,
        historyChars: this.limits.historyChars,
        nextCallId: () => `c${(++this.callSeq).toString(36)}`,
        setup: () => this.setup(),
      });
      this.runners.set(chatId, runner);
    }
    return runner;
  }

  /** Read at the start of every turn, so `bproxy agent config` applies without restarting the host. */
  private async setup(): Promise<TurnSetup> {
    const config = readConfig(this.paths);
    const name = config.provider;
    const key = name === null || !PROVIDERS[name].takesKey ? null : readKey(this.paths, name);
    if (name === null || !isConfigured(config, key !== null))
      throw new AgentError(
        'AGENT_NOT_CONFIGURED',
        name === null
          ? 'no model provider is configured: run `bproxy agent config --provider NAME` on this computer'
          : `the ${name} provider needs ${name === 'openai' ? 'a key or a base URL' : 'a key'}: run \`bproxy agent config --key-stdin\``,
      );
    const signature = JSON.stringify([name, config.baseUrl, key]);
    if (this.provider?.signature !== signature) {
      const old = this.provider;
      const built = this.factories[name]({
        config,
        key,
        paths: this.paths,
        env: this.options.env ?? process.env,
        logger: this.logger,
        modelTimeoutMs: this.limits.modelTimeoutMs,
        bproxyCommand: this.options.bproxyCommand ?? ['bproxy'],
      });
      this.provider = { signature, name, built };
      // A turn of another chat may still use the old provider; it ends with that turn's process or stream.
      if (old !== null) void old.built.then((p) => p.close()).catch(() => {});
      built.catch(() => {
        if (this.provider?.built === built) this.provider = null;
      });
    }
    let provider: Provider;
    try {
      provider = await this.provider.built;
    } catch (error) {
      throw isAgentError(error)
        ? error
        : new AgentError('MODEL_ERROR', `the ${name} provider could not start`);
    }
    return { config, providerName: name, provider };
  }

  private settings(id: string) {
    const config: AgentConfig = readConfig(this.paths);
    const name = config.provider;
    const hasKey = name !== null && PROVIDERS[name].takesKey && readKey(this.paths, name) !== null;
    return {
      type: 'settings' as const,
      id,
      provider: name,
      models: config.models,
      tools: this.toolbox.switches(config.tools),
      configured: isConfigured(config, hasKey),
    };
  }

  private setSettings(message: Extract<AgentMessage, { type: 'settings.set' }>): void {
    const unknown = Object.keys(message.tools ?? {}).filter((name) => !this.toolbox.has(name));
    if (unknown.length > 0)
      throw new AgentError('BAD_REQUEST', `tools: no tool named ${unknown.map((n) => `"${n}"`).join(', ')}`);
    for (const [tier, model] of Object.entries(message.models ?? {}))
      if (model.trim() === '')
        throw new AgentError('BAD_REQUEST', `models.${tier}: a model name cannot be empty`);
    const stale = staleFields(message.base, readConfig(this.paths), (tools) => this.toolbox.switches(tools));
    if (stale.length > 0)
      throw new AgentError(
        'BAD_REQUEST',
        `${SETTINGS_CHANGED} (${stale.join(', ')}): nothing was saved; the current settings are shown`,
      );
    const file = readConfigFile(this.paths);
    writeConfigFile(this.paths, {
      ...file,
      models: { ...file.models, ...message.models },
      tools: { ...file.tools, ...message.tools },
    });
    this.logger.info('settings_set', {
      tools: Object.keys(message.tools ?? {}).length,
      models: Object.keys(message.models ?? {}).length,
    });
  }
}
