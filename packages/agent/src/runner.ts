/**
 * A Runner per chat: its queue, its running turn and its stored transcript. Messages of one chat run
 * one after the other; at most 5 wait behind the running turn, and a sixth is refused with
 * CHAT_QUEUE_FULL. Different chats have different runners and run at the same time. `chat.queue` tells
 * the panel whenever the queue moves. Stop ends the running turn (its tool calls get results) and
 * drops what waited: a user who presses Stop wants the agent to stop, not to start the next message.
 * What it dropped is said (`dropped`) and kept in the transcript, marked, under the stopped answer.
 */
import type { ChatUserMessage, Emit, TurnDeps, TurnSetup } from './turn';
import { runTurn } from './turn';
import { AgentError } from './errors';
import type { ChatStore, StoredChat } from './store/chat-store';
import { unfenced } from './tools/exfiltration';

/** The tools whose results are the agent's own store read out: notes recalled, scratch files read. */
const READING_TOOLS: ReadonlySet<string> = new Set(['recall', 'read_file']);

/** What a stored chat's conversation shows it read out of its notes and files. */
function storedReads(chat: StoredChat): string[] {
  return chat.conversation.flatMap((message) =>
    message.role === 'tool'
      ? message.results.filter((r) => r.ok && READING_TOOLS.has(r.name)).map((r) => unfenced(r.content))
      : [],
  );
}

export const MAX_QUEUED = 5;
/** How long a write of the transcript may wait while a turn runs (it is written at once when it ends). */
const SAVE_DEBOUNCE_MS = 250;

interface Queued {
  readonly message: ChatUserMessage;
  readonly emit: Emit;
}

export interface RunnerDeps extends Omit<TurnDeps, 'save'> {
  readonly store: ChatStore;
  /** The provider and configuration for a turn about to start; throws AgentError when none is usable. */
  readonly setup: () => Promise<TurnSetup>;
}

export class ChatRunner {
  private readonly queue: Queued[] = [];
  private running: { controller: AbortController; done: Promise<void> } | null = null;
  private chat: StoredChat | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    readonly chatId: string,
    private readonly deps: RunnerDeps,
  ) {}

  get busy(): boolean {
    return this.running !== null || this.queue.length > 0;
  }

  submit(message: ChatUserMessage, emit: Emit): void {
    if (this.closed) return;
    if (this.running !== null && this.queue.length >= MAX_QUEUED) {
      emit({
        type: 'error',
        chatId: this.chatId,
        code: 'CHAT_QUEUE_FULL',
        message: `${MAX_QUEUED} messages already wait in this chat; this one was not queued`,
      });
      return;
    }
    this.queue.push({ message, emit });
    this.pump();
    this.announce(emit);
  }

  stop(emit: Emit): void {
    const dropped = this.queue.splice(0);
    this.running?.controller.abort();
    this.announce(emit, false, dropped.length);
    if (dropped.length === 0) return;
    // Written after what the stopped turn writes, as the panel shows them: under its answer.
    const record = (): void => {
      const chat = this.load();
      for (const { message } of dropped)
        chat.entries.push({ role: 'user', text: message.text, at: this.deps.clock(), dropped: true });
      this.save(true);
    };
    if (this.running === null) record();
    else void this.running.done.then(record);
  }

  history(id: string, emit: Emit): void {
    emit({
      type: 'chat.transcript',
      id,
      chatId: this.chatId,
      entries: this.load().entries,
      running: this.running !== null,
    });
  }

  /** Stops the running turn and waits for it to end (bounded), then writes the chat. */
  async close(timeoutMs: number): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    const running = this.running;
    running?.controller.abort();
    if (running !== null) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        running.done,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    }
    this.flush();
  }

  private announce(emit: Emit, running = this.running !== null, dropped = 0): void {
    emit({
      type: 'chat.queue',
      chatId: this.chatId,
      running,
      queued: this.queue.length,
      ...(dropped > 0 ? { dropped } : {}),
    });
  }

  private load(): StoredChat {
    if (this.chat === null) {
      this.chat = this.deps.store.load(this.chatId);
      // What this chat recalled or read before (another host process): a URL must not carry it either.
      this.deps.toolbox.noteRead(this.chatId, storedReads(this.chat));
    }
    return this.chat;
  }

  private pump(): void {
    if (this.running !== null || this.closed) return;
    const next = this.queue.shift();
    if (next === undefined) return;
    const controller = new AbortController();
    const done = this.execute(next, controller.signal).finally(() => {
      this.running = null;
      // The next waiting message starts first: the panel hears that one runs, and one fewer waits.
      this.pump();
      this.announce(next.emit);
    });
    this.running = { controller, done };
  }

  private async execute({ message, emit }: Queued, signal: AbortSignal): Promise<void> {
    const chat = this.load();
    let setup: TurnSetup;
    try {
      setup = await this.deps.setup();
    } catch (error) {
      const failure =
        error instanceof AgentError ? error : new AgentError('INTERNAL_ERROR', 'the agent could not start');
      emit({ type: 'error', chatId: this.chatId, code: failure.code, message: failure.message });
      return;
    }
    if (signal.aborted) {
      emit({ type: 'turn_done', chatId: this.chatId, stopped: true });
      return;
    }
    await runTurn({ ...this.deps, save: (now) => this.save(now) }, chat, message, setup, emit, signal);
  }

  private save(now: boolean): void {
    if (now) {
      this.flush();
      return;
    }
    if (this.saveTimer !== null) return;
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DEBOUNCE_MS);
    this.saveTimer.unref();
  }

  private flush(): void {
    if (this.saveTimer !== null) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (this.chat === null) return;
    try {
      this.deps.store.save(this.chat);
    } catch (error) {
      this.deps.logger.error('chat_save_failed', {
        chatId: this.chatId,
        error: error instanceof Error ? error.name : 'unknown',
      });
    }
  }
}
