/**
 * One turn of a chat, from the user's message to `turn_done` or `error`: routes the message to the
 * fast or strong model, hands the provider the conversation, the tools the user left on and a stop
 * signal, relays streamed text and every tool call and result to the panel, keeps the transcript and
 * the conversation, and ends the turn exactly once — `turn_done` (stopped or not), or `error` with a
 * catalogue code (a model failure, the step cap, a page that needs the user). Every tool call that
 * started gets a result: its own, or a synthetic one on stop.
 */
import type { HostToExtension, TranscriptEntry, ChatUserMessageSchema } from '@bproxy/protocol';
import type { z } from 'zod';
import type { AgentConfig } from './config/agent-config';
import type { ToolCall, ToolResult } from './conversation';
import { AgentError, clip, isAgentError } from './errors';
import type { AgentLogger } from './logger';
import type { Provider, TurnEnding, TurnRequest } from './providers/provider';
import { routeMessage } from './routing';
import type { StoredChat } from './store/chat-store';
import { recentMessages } from './conversation';
import { systemPrompt } from './system-prompt';
import { panelSummary } from './tools/browser-tools';
import type { ToolBox } from './tools/toolbox';

export type ChatUserMessage = z.infer<typeof ChatUserMessageSchema>;
export type Emit = (message: HostToExtension) => void;

export interface TurnDeps {
  readonly toolbox: ToolBox;
  readonly logger: AgentLogger;
  readonly clock: () => number;
  readonly maxSteps: number;
  /** Characters of earlier conversation the model is given. */
  readonly historyChars: number;
  readonly nextCallId: () => string;
  /** Persists the chat soon (debounced); `now` at the end of the turn. */
  readonly save: (now: boolean) => void;
}

export interface TurnSetup {
  readonly config: AgentConfig;
  readonly providerName: string;
  readonly provider: Provider;
}

const NOT_RUN = 'NOT RUN: the user stopped the turn before this tool call started';
const TEXT_MAX = 100_000;
const NAME_MAX = 64;
const INPUT_STRING_MAX = 2_000;

/** A tool call's input as the panel and the transcript show it: long strings (a saved file) cut. */
function displayInput(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(input).map(([key, value]) => [
      key,
      typeof value === 'string' && value.length > INPUT_STRING_MAX
        ? `${value.slice(0, INPUT_STRING_MAX)}…`
        : value,
    ]),
  );
}

type ToolEntry = Extract<TranscriptEntry, { role: 'tool' }>;

/**
 * What a turn writes down as it goes: the model's text (into the transcript when a tool call or the
 * end interrupts it), and each tool call — its transcript entry and the panel's id for it — settled
 * once with its result.
 */
class TurnRecord {
  private text = '';
  /** The panel's call id and transcript entry of each provider call id. */
  readonly calls = new Map<string, { uiId: string; entry: ToolEntry }>();

  constructor(
    private readonly deps: TurnDeps,
    private readonly chat: StoredChat,
    private readonly chatId: string,
    private readonly model: string,
    private readonly emit: Emit,
  ) {}

  addText(delta: string): void {
    if (delta === '') return;
    this.text += delta;
    this.emit({ type: 'delta', chatId: this.chatId, text: clip(delta, TEXT_MAX) });
  }

  flushText(): void {
    if (this.text === '') return;
    this.chat.entries.push({
      role: 'assistant',
      text: clip(this.text, TEXT_MAX),
      at: this.deps.clock(),
      model: this.model,
    });
    this.text = '';
  }

  announce(call: ToolCall): ToolEntry {
    this.flushText();
    const uiId = this.deps.nextCallId();
    const name = clip(call.name, NAME_MAX);
    const input = displayInput(call.input);
    const entry = {
      role: 'tool' as const,
      callId: uiId,
      name,
      input,
      ok: null,
      text: '',
      at: this.deps.clock(),
    };
    this.chat.entries.push(entry);
    this.calls.set(call.id, { uiId, entry });
    this.emit({ type: 'tool_call', chatId: this.chatId, callId: uiId, name, input });
    return entry;
  }

  settle(callId: string, ok: boolean, summary: string): void {
    const known = this.calls.get(callId);
    if (known === undefined || known.entry.ok !== null) return;
    known.entry.ok = ok;
    known.entry.text = clip(summary, TEXT_MAX);
    this.emit({ type: 'tool_result', chatId: this.chatId, callId: known.uiId, ok, text: known.entry.text });
  }

  /** A call the provider ran itself and never reported back (stopped, failed): it ends here. */
  settleUnreported(): void {
    for (const [callId, known] of this.calls)
      if (known.entry.ok === null) this.settle(callId, false, 'stopped');
  }
}

/** One tool call the provider asks the agent to run: announced, run in the toolbox, logged, settled. */
async function runToolCall(
  deps: TurnDeps,
  message: ChatUserMessage,
  config: AgentConfig,
  record: TurnRecord,
  signal: AbortSignal,
  call: ToolCall,
): Promise<ToolResult> {
  if (signal.aborted) return { callId: call.id, name: call.name, ok: false, content: NOT_RUN };
  record.announce(call);
  const startedAt = deps.clock();
  const { chatId } = message;
  const context = { session: message.session, chatId, sharedNotes: config.sharedNotes };
  const run = await deps.toolbox.run(call.name, call.input, context, config.tools, signal);
  record.settle(call.id, run.ok, run.summary);
  deps.logger.info('tool_call', {
    chatId,
    tool: clip(call.name, NAME_MAX),
    ok: run.ok,
    code: run.code,
    ms: deps.clock() - startedAt,
  });
  deps.save(false);
  return {
    callId: call.id,
    name: call.name,
    ok: run.ok,
    content: run.content,
    ...(run.image === undefined ? {} : { image: run.image }),
    ...(run.code === 'HUMAN_REQUIRED' ? { pausedFor: run.reason ?? run.summary } : {}),
  };
}

/** What the provider is handed for this turn, its callbacks writing into `record` and the chat. */
function turnRequest(
  deps: TurnDeps,
  chat: StoredChat,
  message: ChatUserMessage,
  setup: TurnSetup,
  model: string,
  record: TurnRecord,
  signal: AbortSignal,
): TurnRequest {
  const { config } = setup;
  return {
    chatId: message.chatId,
    session: message.session,
    model,
    system: systemPrompt({
      files:
        deps.toolbox.enabled('save_file', config.tools) || deps.toolbox.enabled('read_file', config.tools),
      notes: deps.toolbox.enabled('recall', config.tools),
      sharedNotes: config.sharedNotes,
    }),
    history: recentMessages(chat.conversation, deps.historyChars),
    userText: message.text,
    tools: deps.toolbox.definitions(config.tools),
    maxSteps: deps.maxSteps,
    signal,
    providerSession: chat.providerSession?.provider === setup.providerName ? chat.providerSession.id : null,
    onText: (delta) => record.addText(delta),
    runTool: (call) => runToolCall(deps, message, config, record, signal, call),
    observeToolCall(call) {
      record.announce(call);
    },
    observeToolResult(result) {
      const name = record.calls.get(result.callId)?.entry.name ?? '';
      record.settle(result.callId, result.ok, panelSummary(name, result.ok, result.content));
    },
    record(entry) {
      chat.conversation.push(entry);
      deps.save(false);
    },
    setProviderSession(id) {
      chat.providerSession = { provider: setup.providerName, id };
    },
  };
}

/** How the provider's turn ended, or the failure it ends with (a thrown error kept to a catalogue code). */
async function providerOutcome(
  deps: TurnDeps,
  provider: Provider,
  request: TurnRequest,
  signal: AbortSignal,
): Promise<{ ending: TurnEnding | null; failure: AgentError | null }> {
  try {
    return { ending: await provider.runTurn(request), failure: null };
  } catch (error) {
    if (signal.aborted) return { ending: { kind: 'stopped' }, failure: null };
    if (isAgentError(error)) return { ending: null, failure: error };
    deps.logger.error('turn_failed', {
      chatId: request.chatId,
      error: error instanceof Error ? error.name : 'unknown',
    });
    return {
      ending: null,
      failure: new AgentError(
        'INTERNAL_ERROR',
        'the agent failed unexpectedly; the host log has the details',
      ),
    };
  }
}

export async function runTurn(
  deps: TurnDeps,
  chat: StoredChat,
  message: ChatUserMessage,
  setup: TurnSetup,
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  const { chatId } = message;
  const tier = routeMessage(message.text, message.model);
  const model = setup.config.models[tier];
  const started = deps.clock();
  deps.logger.info('turn_start', { chatId, provider: setup.providerName, model, tier });
  chat.entries.push({ role: 'user', text: message.text, at: started });

  const record = new TurnRecord(deps, chat, chatId, model, emit);
  const request = turnRequest(deps, chat, message, setup, model, record, signal);
  const outcome = await providerOutcome(deps, setup.provider, request, signal);
  const { ending } = outcome;
  let { failure } = outcome;
  record.flushText();
  record.settleUnreported();
  if (ending?.kind === 'paused')
    failure = new AgentError(
      'HUMAN_REQUIRED',
      clip(
        `The page needs you: ${ending.reason}. Do it in the tab, then resume the session; the agent goes on with your next message.`,
      ),
    );
  if (failure !== null) {
    chat.entries.push({ role: 'error', text: `${failure.code}: ${failure.message}`, at: deps.clock() });
    emit({ type: 'error', chatId, code: failure.code, message: clip(failure.message) });
  } else {
    emit({ type: 'turn_done', chatId, stopped: ending?.kind === 'stopped', model });
  }
  deps.logger.info('turn_end', {
    chatId,
    ending: failure?.code ?? ending?.kind ?? 'unknown',
    tools: record.calls.size,
    ms: deps.clock() - started,
  });
  deps.save(true);
}
