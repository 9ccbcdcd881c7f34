/**
 * Chat: the in-browser agent, for the tab in front. Each tab has its own chat (tab-ids.ts), kept in
 * the host and shown again when the panel reopens; the view follows tab switches and keeps listening
 * to the chats of tabs it showed, so a turn running in another tab goes on rendering there. The user's
 * bubble shows at once; sending in a tab no session holds shares it first (the user's own Share, the
 * only way a tab reaches an agent), so the agent acts in it. Stop, the queue (at most 5 waiting; the
 * host refuses a sixth, and the refused bubble says so), a model choice per message, and settings.
 */
import type { HostToExtension, ModelChoice, SessionId } from '@bproxy/protocol';
import { ModelChoiceSchema } from '@bproxy/protocol';
import { HostCalls } from './chat-host';
import { chatIdFor, type SessionStorage } from './tab-ids';
import { ChatLog } from './chat-log';
import { ChatSettings } from './chat-settings';
import { byId, el } from './dom';
import type { PanelLink } from './link';

interface TabChat {
  readonly chatId: string;
  readonly log: ChatLog;
  running: boolean;
  queued: number;
  /** Bubbles sent and not yet taken or refused by the host, oldest first. */
  readonly unconfirmed: HTMLElement[];
  /** Bubbles sent behind a running answer whose turn has not started, oldest first. */
  waiting: HTMLElement[];
}

/** Chats this panel keeps listening to (the tabs it showed), newest kept. */
const MAX_WATCHED = 50;

export class ChatView {
  private readonly host = byId('chat-log-host');
  private readonly form = byId<HTMLFormElement>('chat-form');
  private readonly input = byId<HTMLTextAreaElement>('chat-input');
  private readonly model = byId<HTMLSelectElement>('chat-model');
  private readonly stop = byId<HTMLButtonElement>('chat-stop');
  private readonly queue = byId('chat-queue');
  private readonly calls: HostCalls;
  private readonly settings: ChatSettings;
  private readonly chats = new Map<number, Promise<TabChat>>();
  private readonly byChatId = new Map<string, TabChat>();
  private shown: TabChat | null = null;

  constructor(
    private readonly link: PanelLink,
    private readonly currentTab: () => number | null,
    private readonly storage: SessionStorage,
  ) {
    this.calls = new HostCalls(link);
    this.settings = new ChatSettings(this.calls);
    link.on((message) => {
      if (message.type === 'host') this.stream(message.message);
      else if (message.type === 'status') this.settings.hostMissing(message.host === 'missing');
    });
    link.onReconnect(() => {
      this.watch();
      for (const chat of this.byChatId.values()) void this.reload(chat);
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.send();
      }
    });
    this.stop.addEventListener('click', () => {
      if (this.shown) this.link.send({ type: 'host', message: { type: 'stop', chatId: this.shown.chatId } });
    });
    void this.settings.load();
    this.tabChanged();
  }

  /** The tab in front changed: show its chat. */
  tabChanged(): void {
    const tab = this.currentTab();
    if (tab === null) return;
    this.chatFor(tab).then(
      (chat) => {
        if (this.currentTab() !== tab) return;
        this.shown = chat;
        this.host.replaceChildren(chat.log.element);
        this.renderState();
        this.scrollDown();
      },
      (error: unknown) => {
        if (this.currentTab() === tab) this.noChat(error);
      },
    );
  }

  /** The tab's chat id could not be read or kept: nothing to show or send in (switching back retries). */
  private noChat(error: unknown): void {
    this.shown = null;
    const text = `The chat for this tab could not be opened: ${String(error)}`;
    this.host.replaceChildren(el('div', { className: 'chat-error', text }));
    this.renderState();
  }

  private chatFor(tab: number): Promise<TabChat> {
    let found = this.chats.get(tab);
    if (found === undefined) {
      found = chatIdFor(this.storage, tab).then((chatId) => {
        const chat: TabChat = {
          chatId,
          // A streamed answer renders at most once per frame: the view follows it down then.
          log: new ChatLog(() => {
            if (chat === this.shown) this.scrollDown();
          }),
          running: false,
          queued: 0,
          unconfirmed: [],
          waiting: [],
        };
        this.byChatId.set(chatId, chat);
        this.watch();
        void this.reload(chat);
        return chat;
      });
      // A failure is not kept: the next look at this tab asks the storage again.
      const pending = found;
      pending.catch(() => {
        if (this.chats.get(tab) === pending) this.chats.delete(tab);
      });
      this.chats.set(tab, found);
    }
    return found;
  }

  /** Tells the worker which chats' streams this panel wants. */
  private watch(): void {
    const ids = [...this.byChatId.keys()].slice(-MAX_WATCHED);
    this.link.send({ type: 'chat.watch', chatIds: ids });
  }

  /** The stored transcript (after the panel reopened, or the worker restarted). */
  private async reload(chat: TabChat): Promise<void> {
    const answer = await this.calls.request({ type: 'chat.history', chatId: chat.chatId });
    if (answer.type !== 'chat.transcript') return;
    // Sent while it loaded: the bubble is newer than what the host had stored, keep what is shown.
    if (chat.unconfirmed.length > 0) return;
    chat.log.load(answer.entries);
    chat.waiting = [];
    chat.running = answer.running;
    this.renderState();
    this.scrollDown();
  }

  private async send(): Promise<void> {
    const text = this.input.value.trim();
    const tab = this.currentTab();
    if (text === '' || tab === null) return;
    let chat: TabChat;
    try {
      chat = await this.chatFor(tab);
    } catch (error) {
      if (this.currentTab() === tab) this.noChat(error);
      return;
    }
    this.input.value = '';
    // Behind a running answer (or one about to run), the message waits apart, below that answer.
    const behind = chat.running || chat.unconfirmed.length > 0 || chat.waiting.length > 0;
    const bubble = behind ? chat.log.queued(text) : chat.log.user(text, true);
    if (behind) chat.waiting.push(bubble);
    chat.unconfirmed.push(bubble);
    this.scrollDown();
    // The tab captured above, not the one in front now: the user may have switched tabs meanwhile.
    // Asked each time, not remembered: after a daemon restart the tab has another session.
    const session = await this.shareTab(tab, chat, bubble);
    if (session === undefined) return;
    const choice = ModelChoiceSchema.safeParse(this.model.value);
    const model: ModelChoice = choice.success ? choice.data : 'auto';
    this.link.send({ type: 'host', message: { type: 'user', chatId: chat.chatId, text, session, model } });
  }

  /**
   * The session holding the tab now, from the daemon (started when it is down): the one that holds it,
   * else a new one — the first message in a tab no session holds shares it, as "Share this tab" does.
   */
  private async shareTab(tab: number, chat: TabChat, bubble: HTMLElement): Promise<SessionId | undefined> {
    const answer = await this.link.user({ kind: 'share_tab', tabId: tab });
    if (answer.ok && answer.result.kind === 'share_tab') return answer.result.shared.session;
    this.refuse(
      chat,
      bubble,
      `Not sent: this tab could not be shared with the agent (${answer.ok ? 'unexpected answer' : answer.reason}).`,
    );
    return undefined;
  }

  private refuse(chat: TabChat, bubble: HTMLElement | undefined, why: string): void {
    if (bubble !== undefined) {
      bubble.classList.remove('pending', 'queued');
      bubble.classList.add('refused');
      const at = chat.unconfirmed.indexOf(bubble);
      if (at >= 0) chat.unconfirmed.splice(at, 1);
      const waiting = chat.waiting.indexOf(bubble);
      if (waiting >= 0) {
        chat.waiting.splice(waiting, 1);
        if (chat.running) {
          chat.log.refusedWaiting(bubble);
          chat.log.notice(why);
          return;
        }
        chat.log.started(bubble);
      }
    }
    chat.log.error(why);
  }

  /**
   * The host's queue moved: waiting messages beyond what it says waits have started (they join the
   * log, in order), or Stop dropped them (marked, and kept).
   */
  private queueMoved(chat: TabChat, message: Extract<HostToExtension, { type: 'chat.queue' }>): void {
    // The host answers messages in the order they were sent: this one took the oldest waiting.
    chat.unconfirmed.shift()?.classList.remove('pending');
    const wasRunning = chat.running;
    chat.running = message.running;
    chat.queued = message.queued;
    const taken = chat.waiting.filter((b) => !chat.unconfirmed.includes(b));
    if (message.dropped !== undefined) {
      chat.waiting = chat.waiting.filter((b) => !taken.includes(b));
      chat.log.dropped(taken, wasRunning);
      return;
    }
    for (const bubble of taken.slice(0, Math.max(0, taken.length - message.queued))) {
      chat.waiting.splice(chat.waiting.indexOf(bubble), 1);
      chat.log.started(bubble);
    }
  }

  private stream(message: HostToExtension): void {
    if (
      !('chatId' in message) ||
      message.chatId === undefined ||
      ('id' in message && message.id !== undefined)
    )
      return;
    const chat = this.byChatId.get(message.chatId);
    if (chat === undefined) return;
    switch (message.type) {
      case 'delta':
        // Only kept here: the log renders it at the next frame, and scrolls then.
        chat.log.delta(message.text);
        return;
      case 'tool_call':
        chat.log.toolCall(message.callId, message.name, message.input);
        break;
      case 'tool_result':
        chat.log.toolResult(message.callId, message.ok, message.text);
        break;
      case 'turn_done':
        chat.log.turnDone(message.stopped, message.model);
        this.settings.answered();
        break;
      case 'chat.queue':
        this.queueMoved(chat, message);
        break;
      case 'error':
        if (message.code === 'CHAT_QUEUE_FULL') {
          this.refuse(
            chat,
            chat.unconfirmed[0],
            'Not queued: 5 messages already wait in this chat. Wait for one to finish, or press Stop.',
          );
          break;
        }
        // The worker could not hand the message to the host (or the host could not reach the daemon).
        if (
          (message.code === 'NO_NATIVE_HOST' || message.code === 'NO_DAEMON') &&
          chat.unconfirmed[0] !== undefined
        ) {
          this.refuse(chat, chat.unconfirmed[0], `Not sent: ${message.message}`);
          break;
        }
        if (message.code === 'AGENT_NOT_CONFIGURED') this.settings.notConfigured();
        chat.log.error(`${message.code}: ${message.message}`);
        break;
      default:
        return;
    }
    if (chat === this.shown) {
      this.renderState();
      this.scrollDown();
    }
  }

  private renderState(): void {
    const chat = this.shown;
    const running = chat?.running ?? false;
    this.stop.disabled = !running;
    chat?.log.working(running);
    this.queue.hidden = !running;
    const waiting = chat?.queued ?? 0;
    this.queue.textContent = running
      ? `Working in this tab${waiting > 0 ? ` · ${waiting} waiting (at most 5)` : ''}`
      : '';
  }

  private scrollDown(): void {
    this.host.scrollTop = this.host.scrollHeight;
  }
}
