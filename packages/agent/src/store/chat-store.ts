/**
 * Chats on disk, `BPROXY_HOME/agent/chats/<chat>.json`, so a chat resumes after the side panel
 * closes, the service worker restarts or the browser restarts: what the panel shows (the transcript
 * entries of the port protocol), what the model is given next time (the conversation), and the
 * provider's own session id (Copilot, Claude Code). Files are 0600, written atomically, read through
 * the state-file checks; a file that does not parse starts the chat afresh rather than failing it.
 *
 * Bounded: 400 transcript entries and about 200,000 characters of conversation per chat (oldest
 * exchanges dropped whole; screenshots and long tool results are not kept), and 200 chats (the
 * least recently written go first).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readStateFile, removeStateFileQuietly, writeStateFileAtomic } from '@bproxy/client/lifecycle';
import { TranscriptEntrySchema, type TranscriptEntry } from '@bproxy/protocol';
import { z } from 'zod';
import { recentMessages, type ConversationMessage } from '../conversation';
import type { AgentLogger } from '../logger';

export const MAX_ENTRIES = 400;
export const MAX_CONVERSATION_CHARS = 200_000;
export const MAX_STORED_RESULT_CHARS = 20_000;
export const MAX_CHATS = 200;

const ToolCallSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const ConversationSchema = z.array(
  z.discriminatedUnion('role', [
    z.strictObject({ role: z.literal('user'), text: z.string() }),
    z.strictObject({ role: z.literal('assistant'), text: z.string(), toolCalls: z.array(ToolCallSchema) }),
    z.strictObject({
      role: z.literal('tool'),
      results: z.array(
        z.strictObject({
          callId: z.string(),
          name: z.string(),
          ok: z.boolean(),
          content: z.string(),
          pausedFor: z.string().optional(),
        }),
      ),
    }),
  ]),
);
const StoredChatSchema = z.strictObject({
  version: z.literal(1),
  chatId: z.string(),
  entries: z.array(TranscriptEntrySchema),
  conversation: ConversationSchema,
  providerSession: z.strictObject({ provider: z.string(), id: z.string().max(256) }).nullable(),
});

export interface StoredChat {
  readonly chatId: string;
  entries: TranscriptEntry[];
  conversation: ConversationMessage[];
  providerSession: { provider: string; id: string } | null;
}

export function chatFileName(chatId: string): string {
  // Chat ids may hold "." and ":" (so ".." is one): the file name never does.
  return `${Buffer.from(chatId, 'utf8').toString('base64url')}.json`;
}

/** What is kept of a conversation: bounded, without images, long results cut. */
export function storable(conversation: readonly ConversationMessage[]): ConversationMessage[] {
  return recentMessages(conversation, MAX_CONVERSATION_CHARS).map((message) =>
    message.role !== 'tool'
      ? message
      : {
          role: 'tool',
          results: message.results.map(({ image: _image, ...result }) => ({
            ...result,
            content:
              result.content.length <= MAX_STORED_RESULT_CHARS
                ? result.content
                : `${result.content.slice(0, MAX_STORED_RESULT_CHARS)}\n[cut when the chat was saved]`,
          })),
        },
  );
}

export class ChatStore {
  constructor(
    private readonly dir: string,
    private readonly logger: AgentLogger,
  ) {}

  load(chatId: string): StoredChat {
    const fresh: StoredChat = { chatId, entries: [], conversation: [], providerSession: null };
    let text: string | null;
    try {
      text = readStateFile(join(this.dir, chatFileName(chatId)));
    } catch (error) {
      this.logger.warn('chat_unreadable', { chatId, reason: error instanceof Error ? error.name : 'error' });
      return fresh;
    }
    if (text === null) return fresh;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    const parsed = StoredChatSchema.safeParse(json);
    if (!parsed.success || parsed.data.chatId !== chatId) {
      this.logger.warn('chat_invalid', { chatId });
      return fresh;
    }
    const { entries, conversation, providerSession } = parsed.data;
    return { chatId, entries, conversation, providerSession };
  }

  save(chat: StoredChat): void {
    chat.entries = chat.entries.slice(-MAX_ENTRIES);
    chat.conversation = storable(chat.conversation);
    const file = { version: 1, ...chat };
    writeStateFileAtomic(join(this.dir, chatFileName(chat.chatId)), JSON.stringify(file));
    this.prune();
  }

  /** Keeps the newest MAX_CHATS chats. */
  private prune(): void {
    const files = readdirSync(this.dir).filter((name) => name.endsWith('.json'));
    if (files.length <= MAX_CHATS) return;
    const byAge = files
      .map((name) => ({ name, mtime: statSync(join(this.dir, name)).mtimeMs }))
      .sort((a, b) => a.mtime - b.mtime);
    for (const { name } of byAge.slice(0, files.length - MAX_CHATS))
      removeStateFileQuietly(join(this.dir, name));
  }
}
