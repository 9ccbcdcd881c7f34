/**
 * @bproxy/agent — the agent that works in the user's own browser, run by the native host.
 *
 * The host creates one service and feeds it the chat and settings messages of the native port:
 *
 * ```ts
 * const agent = createAgentService({ home, client, logger });
 * port.onMessage((msg) => { if (isAgentMessage(msg)) agent.handle(msg, emit); });
 * await agent.close(); // the port went away: every turn stops cleanly, every chat is written
 * ```
 *
 * - `handle(message, emit)` takes `user`, `stop`, `chat.history`, `settings.get`, `settings.set` and
 *   answers with `delta`, `tool_call`, `tool_result`, `turn_done`, `chat.queue`, `chat.transcript`,
 *   `settings` and `error` (see @bproxy/protocol's native.ts); it never throws. A turn ends with
 *   exactly one `turn_done` or one `error` carrying its `chatId`.
 * - A Runner per chat: at most 5 messages wait behind the running turn (a sixth: CHAT_QUEUE_FULL),
 *   chats run concurrently, messages are routed to the fast or strong model by the seed's rule.
 * - Tools are bproxy actions from @bproxy/tools, run through the daemon client in the session the
 *   message names, plus scratch files (`agent/files`) and notes (`agent/notes.json`); the user's
 *   switches decide what the model is offered.
 * - Providers: Anthropic Messages API, any OpenAI-compatible endpoint, GitHub Copilot (SDK), Claude
 *   Code CLI; configured with `bproxy agent config` (config.ts here is what it uses).
 * - Chats persist in `agent/chats/`; keys live in `agent/keys.json` (0600, checked) and nowhere else.
 */
export {
  createAgentService,
  isAgentMessage,
  type AgentLimits,
  type AgentMessage,
  type AgentService,
  type AgentServiceOptions,
} from './service';
export type { Emit } from './turn';
export type { AgentLogger, LogFields } from './logger';
export type { ActionCaller } from './tools/browser-tools';
export type { ProviderFactory, ProviderContext } from './providers/registry';
export type {
  Provider,
  TurnRequest,
  TurnEnding,
  ChatModel,
  StepRequest,
  StepResult,
} from './providers/provider';
export { loopProvider } from './providers/registry';
export { routeMessage, type ModelTier } from './routing';
export { MAX_QUEUED } from './runner';
