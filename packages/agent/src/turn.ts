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

export async function runTurn(
  deps: TurnDeps,
  chat: StoredChat,
  message: ChatUserMessage,
  setup: TurnSetup,
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  const { chatId } = message;
  const { config, provider } = setup;
  const tier = routeMessage(message.text, message.model);
  const model = config.models[tier];
  const started = deps.clock();
  deps.logger.info('turn_start', { chatId, provider: setup.providerName, model, tier });
  chat.entries.push({ role: 'user', text: message.text, at: started });

  let text = '';
  const flushText = (): void => {
    if (text === '') return;
    chat.entries.push({ role: 'assistant', text: clip(text, TEXT_MAX), at: deps.clock(), model });
    text = '';
  };
  /** The panel's call id and transcript entry of each provider call id. */
  const calls = new Map<string, { uiId: string; entry: Extract<TranscriptEntry, { role: 'tool' }> }>();
  const announce = (call: ToolCall): Extract<TranscriptEntry, { role: 'tool' }> => {
    flushText();
    const uiId = deps.nextCallId();
    const name = clip(call.name, NAME_MAX);
    const input = displayInput(call.input);
    const entry = {
      role: 'tool' as const,
      callId: uiId,
      name,
      input,
      ok: null,
      text: '',
      at: deps.clock(),
    };
    chat.entries.push(entry);
    calls.set(call.id, { uiId, entry });
    emit({ type: 'tool_call', chatId, callId: uiId, name, input });
    return entry;
  };
  const settle = (callId: string, ok: boolean, summary: string): void => {
    const known = calls.get(callId);
    if (known === undefined || known.entry.ok !== null) return;
    known.entry.ok = ok;
    known.entry.text = clip(summary, TEXT_MAX);
    emit({ type: 'tool_result', chatId, callId: known.uiId, ok, text: known.entry.text });
  };

  const request: TurnRequest = {
    chatId,
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
    onText(delta) {
      if (delta === '') return;
      text += delta;
      emit({ type: 'delta', chatId, text: clip(delta, TEXT_MAX) });
    },
    async runTool(call): Promise<ToolResult> {
      if (signal.aborted) return { callId: call.id, name: call.name, ok: false, content: NOT_RUN };
      announce(call);
      const startedAt = deps.clock();
      const context = { session: message.session, chatId, sharedNotes: config.sharedNotes };
      const run = await deps.toolbox.run(call.name, call.input, context, config.tools, signal);
      settle(call.id, run.ok, run.summary);
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
    },
    observeToolCall(call) {
      announce(call);
    },
    observeToolResult(result) {
      const name = calls.get(result.callId)?.entry.name ?? '';
      settle(result.callId, result.ok, panelSummary(name, result.ok, result.content));
    },
    record(entry) {
      chat.conversation.push(entry);
      deps.save(false);
    },
    setProviderSession(id) {
      chat.providerSession = { provider: setup.providerName, id };
    },
  };

  let ending: TurnEnding | null = null;
  let failure: AgentError | null = null;
  try {
    ending = await provider.runTurn(request);
  } catch (error) {
    if (signal.aborted) ending = { kind: 'stopped' };
    else if (isAgentError(error)) failure = error;
    else {
      deps.logger.error('turn_failed', { chatId, error: error instanceof Error ? error.name : 'unknown' });
      failure = new AgentError(
        'INTERNAL_ERROR',
        'the agent failed unexpectedly; the host log has the details',
      );
    }
  }
  flushText();
  // A call the provider ran itself and never reported back (stopped, failed): it ends here.
  for (const [callId, known] of calls) if (known.entry.ok === null) settle(callId, false, 'stopped');
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
    tools: calls.size,
    ms: deps.clock() - started,
  });
  deps.save(true);
}
