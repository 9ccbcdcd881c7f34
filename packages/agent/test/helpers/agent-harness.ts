/**
 * An agent service in a fresh BPROXY_HOME, as the native host would run it: every message it emits
 * is checked against the port's schema and collected, and tests wait for a turn's end by polling
 * those messages with a bound (no sleeps).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExtensionToHostSchema, HostToExtensionSchema, type HostToExtension } from '@bproxy/protocol';
import {
  createAgentService,
  isAgentMessage,
  type ActionCaller,
  type AgentService,
  type AgentServiceOptions,
} from '@bproxy/agent';
import { agentPaths, writeConfigFile, writeKey, type ProviderName } from '@bproxy/agent/config';

export async function until<T>(
  what: string,
  check: () => T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface ConfigureOptions {
  readonly provider: ProviderName;
  readonly baseUrl?: string;
  readonly key?: string;
  readonly models?: { fast?: string; strong?: string };
  readonly tools?: Record<string, boolean>;
}

export function configure(home: string, options: ConfigureOptions): void {
  const paths = agentPaths(home);
  writeConfigFile(paths, {
    version: 1,
    provider: options.provider,
    models: options.models ?? { fast: 'model-fast', strong: 'model-strong' },
    baseUrl: options.baseUrl ?? null,
    tools: options.tools ?? {},
  });
  if (options.key !== undefined) writeKey(paths, options.provider, options.key);
}

type Of<T extends HostToExtension['type']> = Extract<HostToExtension, { type: T }>;

export class AgentHarness {
  readonly messages: HostToExtension[] = [];
  readonly invalid: unknown[] = [];
  readonly service: AgentService;

  constructor(
    readonly home: string,
    client: ActionCaller,
    extra: Partial<AgentServiceOptions> = {},
  ) {
    this.service = createAgentService({ home, client, limits: { modelTimeoutMs: 10_000 }, ...extra });
  }

  static tempHome(): string {
    return mkdtempSync(join(tmpdir(), 'bproxy-agent-'));
  }

  readonly emit = (message: HostToExtension): void => {
    if (!HostToExtensionSchema.safeParse(message).success) this.invalid.push(message);
    this.messages.push(message);
  };

  /** Validates `message` as the host would (the port's schema), then hands it to the agent. */
  send(message: Record<string, unknown>): void {
    const parsed = ExtensionToHostSchema.parse(message);
    if (!isAgentMessage(parsed)) throw new Error(`not an agent message: ${parsed.type}`);
    this.service.handle(parsed, this.emit);
  }

  of<T extends HostToExtension['type']>(type: T, chatId?: string): Of<T>[] {
    return this.messages.filter(
      (m): m is Of<T> => m.type === type && (chatId === undefined || ('chatId' in m && m.chatId === chatId)),
    );
  }

  /** The end (`turn_done` or `error`) of the chat's n-th turn (1-based). */
  turnEnd(chatId: string, n = 1, timeoutMs = 15_000): Promise<Of<'turn_done'> | Of<'error'>> {
    return until(
      `turn ${n} of ${chatId} to end`,
      () =>
        this.messages.filter(
          (m): m is Of<'turn_done'> | Of<'error'> =>
            (m.type === 'turn_done' || m.type === 'error') && m.chatId === chatId,
        )[n - 1],
      timeoutMs,
    );
  }

  /** The answer to a request id. */
  answer(id: string): Promise<HostToExtension> {
    return until(`an answer to ${id}`, () => this.messages.find((m) => 'id' in m && m.id === id));
  }

  text(chatId: string): string {
    return this.of('delta', chatId)
      .map((m) => m.text)
      .join('');
  }

  async close(): Promise<void> {
    await this.service.close();
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** A daemon stand-in for tests about the agent's own logic: answers every action from a script. */
export function scriptedDaemon(
  answer: (action: string, params: Record<string, unknown>, session?: string) => unknown,
): ActionCaller & { calls: { action: string; params: Record<string, unknown>; session?: string }[] } {
  const calls: { action: string; params: Record<string, unknown>; session?: string }[] = [];
  return {
    calls,
    async call(action, params, options) {
      calls.push({ action, params, ...(options.session === undefined ? {} : { session: options.session }) });
      const data = await answer(action, params, options.session);
      if (typeof data === 'object' && data !== null && 'error' in data)
        return { ok: false, id: 'x', error: (data as { error: never }).error };
      return { ok: true, id: 'x', data: data as Record<string, unknown> };
    },
  };
}
