/**
 * The conversation as the agent keeps it, independent of any provider's wire: user messages,
 * assistant messages with their tool calls, and the results of those calls. Each provider translates
 * it to its own format (Anthropic content blocks, OpenAI tool messages). Every tool call of an
 * assistant message has exactly one result in the message that follows it — the Anthropic API refuses
 * a transcript that breaks this, so a stopped turn gets synthetic results (see turn.ts).
 */
export interface ToolCall {
  /** The provider's id for the call, echoed with its result. */
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface ToolResult {
  readonly callId: string;
  readonly name: string;
  readonly ok: boolean;
  /** What the model sees: the tool's reply, page content fenced as untrusted data. */
  readonly content: string;
  /** A screenshot, as a base64 image block. */
  readonly image?: { readonly data: string; readonly mimeType: string };
  /** Set when the call found the session paused for a human (HUMAN_REQUIRED): why. */
  readonly pausedFor?: string;
}

export type ConversationMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly results: readonly ToolResult[] };

/**
 * The most recent messages that fit `maxChars`, cut only before a user message so that no tool
 * result loses its call. Images count by their base64 length and are dropped from all but the last
 * tool message (a stored chat keeps none: see chat-store.ts).
 */
export function recentMessages(
  messages: readonly ConversationMessage[],
  maxChars: number,
): ConversationMessage[] {
  let size = 0;
  let start = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message === undefined) continue;
    size += sizeOf(message);
    if (size > maxChars && start < messages.length) break;
    if (message.role === 'user') start = i;
  }
  return messages.slice(start);
}

export function sizeOf(message: ConversationMessage): number {
  switch (message.role) {
    case 'user':
      return message.text.length;
    case 'assistant':
      return message.text.length + message.toolCalls.reduce((n, c) => n + JSON.stringify(c.input).length, 0);
    case 'tool':
      return message.results.reduce((n, r) => n + r.content.length + (r.image?.data.length ?? 0), 0);
  }
}
