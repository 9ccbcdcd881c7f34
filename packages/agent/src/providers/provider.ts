/**
 * What a model provider is to the agent. A provider runs one turn of a chat: the user's message, the
 * conversation so far, the tool inventory and a stop signal in; streamed text, tool calls (each run
 * through `runTool`, which the turn owns) and the messages the turn added out. Providers that only
 * stream one model response at a time (Anthropic, OpenAI-compatible) implement ChatModel and share
 * the loop in loop.ts; providers that run their own loop (Copilot, Claude Code) implement Provider
 * directly and keep their own session, whose id the chat store persists.
 */
import type { ConversationMessage, ToolCall, ToolResult } from '../conversation';
import type { AgentToolDefinition } from '../tools/local-tool';

export interface TurnRequest {
  readonly chatId: string;
  /** The browser session the tools act in (the tab the user shared). */
  readonly session: string;
  readonly model: string;
  readonly system: string;
  /** The conversation before this turn (bounded; ends with a complete exchange). */
  readonly history: readonly ConversationMessage[];
  readonly userText: string;
  readonly tools: readonly AgentToolDefinition[];
  /** Model calls (loop providers) or tool calls (self-looping providers) before the turn ends. */
  readonly maxSteps: number;
  readonly signal: AbortSignal;
  /** The provider's own session of this chat, from an earlier turn (Copilot, Claude Code). */
  readonly providerSession: string | null;
  onText(delta: string): void;
  /** Runs a tool the model called; resolves with the result the model must get (synthetic on stop). */
  runTool(call: ToolCall): Promise<ToolResult>;
  /** A tool call the provider ran itself (Claude Code through `bproxy mcp`), and then its result. */
  observeToolCall(call: ToolCall): void;
  observeToolResult(result: ToolResult): void;
  /** Appends to the chat's conversation as the turn goes, so a failing turn keeps what it did. */
  record(message: ConversationMessage): void;
  /** Keeps the provider's session id with the chat. */
  setProviderSession(id: string): void;
}

/** How a turn ended, short of an error (errors are thrown as AgentError). */
export type TurnEnding =
  | { readonly kind: 'done' }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'paused'; readonly reason: string };

export interface Provider {
  runTurn(request: TurnRequest): Promise<TurnEnding>;
  /** Ends whatever the provider keeps running (child processes, connections). */
  close(): Promise<void>;
}

/** One model response: streamed text and the tool calls it asked for. */
export interface StepRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly ConversationMessage[];
  readonly tools: readonly AgentToolDefinition[];
  readonly signal: AbortSignal;
  onText(delta: string): void;
}

export interface StepResult {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
}

export interface ChatModel {
  step(request: StepRequest): Promise<StepResult>;
}
