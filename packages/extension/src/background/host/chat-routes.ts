/**
 * Which open panel hears which chat. A panel says the chats it shows (`chat.watch`, one per tab it
 * serves); a chat's stream from the host — deltas, tool calls and results, turn ends, queue moves and
 * the chat's errors — goes to those panels only, so two panels (or two windows' panels) on different
 * tabs never see each other's conversation. Messages that answer a request (`id`) are not routed
 * here: the relay hands them to the panel that asked.
 */
import type { HostToExtension } from '@bproxy/protocol';

const CHAT_STREAM: ReadonlySet<HostToExtension['type']> = new Set([
  'delta',
  'tool_call',
  'tool_result',
  'turn_done',
  'chat.queue',
]);

/** The chat a host message streams to, or null when it is not part of a chat's stream. */
export function chatOf(message: HostToExtension): string | null {
  if (CHAT_STREAM.has(message.type) && 'chatId' in message) return message.chatId ?? null;
  if (message.type === 'error' && message.id === undefined && message.chatId !== undefined)
    return message.chatId;
  return null;
}

export class ChatRoutes<Panel> {
  private readonly watching = new Map<Panel, ReadonlySet<string>>();

  /** Replaces what `panel` watches (a panel that follows the tab in front watches the new tab's chat). */
  watch(panel: Panel, chatIds: readonly string[]): void {
    this.watching.set(panel, new Set(chatIds));
  }

  forget(panel: Panel): void {
    this.watching.delete(panel);
  }

  /** The panels that show `chatId`. */
  panelsFor(chatId: string): Panel[] {
    return [...this.watching].filter(([, chats]) => chats.has(chatId)).map(([panel]) => panel);
  }
}
