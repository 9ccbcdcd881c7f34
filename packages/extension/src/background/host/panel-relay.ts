/**
 * The worker's side of the side panel's port: every open panel hears the sessions holding this
 * browser's tabs, each activity entry and the terminal streams, and the streams of the chats it
 * watches (chat-routes.ts); what a panel asks goes to the daemon (the user's hand-off requests, an
 * activity replay), the browser (bring a tab to the front) or the native host (chats, settings,
 * terminals — never pairing or the daemon locator, which are the worker's own business). Only ports
 * from this extension's own pages are accepted.
 */
import { fromOwnPage, inDrivenTab } from '../own-pages';
import type { ExtensionToHost, HostToExtension } from '@bproxy/protocol';
import type { ChromeApi, PortLike } from '../../chrome-api';
import {
  PANEL_PORT,
  PanelToWorkerSchema,
  type PanelAnswer,
  type PanelToWorker,
  type WorkerToPanel,
} from '../../common/panel-messages';
import type { BrowserView } from '../daemon/browser-view';
import type { ConnectionStatus } from '../../common/worker-status';
import type { Connection } from '../daemon/connection';
import type { ShareFn } from '../daemon/share-tab';
import { ChatRoutes, chatOf } from './chat-routes';
import { messageOf } from '../driver/errors';
import type { WorkerLog } from '../log';
import type { NativeHost } from './native-host';
import { TerminalAttachments } from './terminal-attachments';
import { setupCommand } from '../../common/user-commands';

export interface PanelRelayOptions {
  chrome: Pick<ChromeApi, 'runtime' | 'tabs' | 'windows'>;
  log: WorkerLog;
  connection: Pick<Connection, 'userRequest'> & { status(): Pick<ConnectionStatus, 'state' | 'stopReason'> };
  host: Pick<NativeHost, 'onMessage' | 'request' | 'send' | 'status' | 'ensure' | 'connected'>;
  view: Pick<BrowserView, 'listen'>;
  share: ShareFn;
  /** Starts the daemon through the native host and waits for the link (HostPairing.startDaemon). */
  startDaemon(): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** Whether bproxy drives this tab: a panel page loaded inside such a tab is refused. */
  isDriven(tabId: number): boolean;
}

/** The host messages a panel may send: chats, settings and terminals. */
const PANEL_HOST_TYPES: ReadonlySet<ExtensionToHost['type']> = new Set([
  'user',
  'stop',
  'chat.history',
  'settings.get',
  'settings.set',
  'pty.open',
  'pty.input',
  'pty.resize',
  'pty.detach',
  'pty.close',
  'pty.session',
]);

/**
 * Host messages that belong to a terminal (not to one request): every panel hears them. A chat's go
 * only to the panels that show the chat (chat-routes.ts).
 */
const STREAM_TYPES: ReadonlySet<HostToExtension['type']> = new Set(['pty.output', 'pty.exit']);

const STATUS_EVERY_MS = 1_000;

/**
 * The host's answer to a panel's request, carrying the panel's id. Every answer is a message with an
 * id (or an error, which may lack one); anything else cannot answer a request and becomes an error.
 */
function answerUnder(id: string, answer: HostToExtension): HostToExtension {
  // An error without an id has no `id` key at all: test the type, not only the key.
  if (answer.type === 'error' || 'id' in answer) return { ...answer, id };
  return { type: 'error', id, code: 'BAD_RESPONSE', message: `the native host answered with ${answer.type}` };
}

export class PanelRelay {
  /** The open panels, each with the unsubscribe of its browser-view listener. */
  private readonly panels = new Map<PortLike, () => void>();
  private statusTimer: ReturnType<typeof setInterval> | null = null;
  private readonly chats = new ChatRoutes<PortLike>();
  private readonly terminals = new TerminalAttachments<PortLike>();

  constructor(private readonly opts: PanelRelayOptions) {}

  /** Wires chrome.runtime.onConnect; call in the worker's first turn. */
  install(): void {
    this.opts.chrome.runtime.onConnect.addListener((port) => {
      if (port.name !== PANEL_PORT) return;
      if (!fromOwnPage(port.sender, this.opts.chrome.runtime.id, ['/panel.html'])) {
        port.disconnect();
        return;
      }
      // Our panel page inside a tab an agent drives is not the user's panel: it may not act for ?tab=.
      if (inDrivenTab(port.sender, (tabId) => this.opts.isDriven(tabId))) {
        this.opts.log.warn('panel_in_driven_tab', { tabId: port.sender?.tab?.id });
        port.disconnect();
        return;
      }
      this.attach(port);
    });
    this.opts.host.onMessage((message) => {
      const chatId = chatOf(message);
      if (chatId !== null) {
        for (const port of this.chats.panelsFor(chatId)) this.post(port, { type: 'host', message });
        return;
      }
      // A terminal's output goes only to the panels showing it, as a chat's stream does.
      const termId = STREAM_TYPES.has(message.type) || message.type === 'error' ? termOf(message) : null;
      if (termId !== null) {
        for (const port of this.terminals.panelsFor(termId)) this.post(port, { type: 'host', message });
        return;
      }
      if (message.type === 'error' && message.chatId !== undefined) this.broadcast({ type: 'host', message });
    });
  }

  private attach(port: PortLike): void {
    const unlisten = this.opts.view.listen({
      sessions: (sessions, lost) => this.post(port, { type: 'sessions', sessions, lost }),
      activity: (entry) => this.post(port, { type: 'activity', entry }),
      approvals: (pending) => this.post(port, { type: 'approvals', pending }),
    });
    this.panels.set(port, unlisten);
    this.post(port, this.status());
    this.statusTimer ??= setInterval(() => this.broadcast(this.status()), STATUS_EVERY_MS);
    port.onMessage.addListener((raw) => {
      const parsed = PanelToWorkerSchema.safeParse(raw);
      if (!parsed.success) {
        this.opts.log.warn('panel_bad_message', { issues: parsed.error.issues.length });
        return;
      }
      if (parsed.data.type === 'chat.watch') {
        this.chats.watch(port, parsed.data.chatIds);
        return;
      }
      if (parsed.data.type === 'host') this.terminals.note(port, parsed.data.message);
      void this.handle(parsed.data, (message) => this.post(port, message)).catch((error: unknown) =>
        this.opts.log.warn('panel_request_failed', { error: messageOf(error) }),
      );
    });
    port.onDisconnect.addListener(() => this.detach(port));
  }

  /** Forgets a panel that closed (or whose port failed): its chats, its view listener, its terminals. */
  private detach(port: PortLike): void {
    const unlisten = this.panels.get(port);
    if (unlisten === undefined) return;
    this.panels.delete(port);
    this.chats.forget(port);
    unlisten();
    // A closed panel detaches its terminals: the host keeps them for a reopened panel to reattach.
    for (const termId of this.terminals.release(port)) this.sendToHost({ type: 'pty.detach', termId });
    if (this.panels.size === 0 && this.statusTimer) {
      clearInterval(this.statusTimer);
      this.statusTimer = null;
    }
  }

  /** Posts to one panel; a port that fails (the panel closed while we spoke) is detached. */
  private post(port: PortLike, message: WorkerToPanel): void {
    try {
      port.postMessage(message);
    } catch {
      this.detach(port);
    }
  }

  private broadcast(message: WorkerToPanel): void {
    for (const port of [...this.panels.keys()]) this.post(port, message);
  }

  /** NativeHost.send, with a port that dropped under it (posting throws) counted as not sent. */
  private sendToHost(message: Parameters<NativeHost['send']>[0]): boolean {
    try {
      return this.opts.host.send(message);
    } catch {
      return false;
    }
  }

  private async handle(message: PanelToWorker, post: (message: WorkerToPanel) => void): Promise<void> {
    const { connection } = this.opts;
    switch (message.type) {
      case 'replay': {
        const answer = await connection.userRequest({ kind: 'activity', after: message.after });
        if (answer.ok && answer.result.kind === 'activity')
          post({ type: 'replay', entries: answer.result.entries, gap: answer.result.gap });
        return;
      }
      case 'user': {
        const { request, requestId } = message;
        let answer: PanelAnswer;
        if (request.kind === 'share_tab') {
          // Sharing while the daemon is down starts it, as a chat message does.
          const started = await this.daemonUp();
          answer = started.ok ? await this.opts.share(request.tabId) : started;
        } else {
          const got = await connection.userRequest(request);
          answer = got.ok ? { ok: true, result: got.result } : { ok: false, reason: got.reason };
        }
        post({ type: 'answer', requestId, answer });
        return;
      }
      case 'focus': {
        const tab = await this.opts.chrome.tabs.update(message.tabId, { active: true });
        if (tab) await this.opts.chrome.windows.update(tab.windowId, { focused: true });
        return;
      }
      case 'chat.watch':
        return;
      case 'start_daemon': {
        const started = await this.daemonUp();
        post({ type: 'daemon_start', ...started });
        return;
      }
      case 'host':
        return this.toHost(message.message, post);
    }
  }

  /** The daemon link, connected: at once when it is, else the daemon started through the host. */
  private async daemonUp(): Promise<{ ok: true } | { ok: false; reason: string }> {
    const { state } = this.opts.connection.status();
    if (state === 'connected') return { ok: true };
    if (state === 'unpaired' || state === 'stopped') {
      const { stopReason } = this.opts.connection.status();
      return { ok: false, reason: stopReason ?? 'this browser is not paired with bproxy' };
    }
    return this.opts.startDaemon();
  }

  /** A panel's message for the native host: a request is answered under its id, the rest is sent on. */
  private async toHost(sent: ExtensionToHost, post: (message: WorkerToPanel) => void): Promise<void> {
    const { host } = this.opts;
    if (!PANEL_HOST_TYPES.has(sent.type)) {
      this.opts.log.warn('panel_host_refused', { type: sent.type });
      return;
    }
    if ('id' in sent) {
      // The panel's own id goes on to the host: the answer comes back under it.
      const { id, ...rest } = sent;
      let answer: HostToExtension;
      try {
        answer = await host.request(rest as Parameters<NativeHost['request']>[0], id);
      } catch (error) {
        answer = {
          type: 'error',
          code: 'NO_NATIVE_HOST',
          message: `the native host went away: ${messageOf(error)}`,
        };
      }
      // Always under the panel's id, the host's own errors without one (not available, went away)
      // included: the panel's call waits for exactly this id.
      post({ type: 'host', message: answerUnder(id, answer) });
      return;
    }
    // A chat message may be the first thing to need the host since it went away: try it again.
    if (!host.connected) await host.ensure();
    if (!this.sendToHost(sent as Parameters<NativeHost['send']>[0])) {
      const ref =
        'chatId' in sent ? { chatId: sent.chatId } : 'termId' in sent ? { termId: sent.termId } : {};
      post({
        type: 'host',
        message: {
          type: 'error',
          code: 'NO_NATIVE_HOST',
          message: `the native host is not available (${host.status().state}): run \`${setupCommand()}\``,
          ...ref,
        },
      });
    }
  }

  private status(): WorkerToPanel {
    const state = this.opts.connection.status();
    const host = this.opts.host.status();
    const hostState = host.state;
    const problem =
      state.state === 'stopped' && state.stopReason !== null
        ? state.stopReason
        : hostState === 'failed' && host.lastError !== null
          ? host.lastError
          : null;
    return {
      type: 'status',
      daemon:
        state.state === 'connected'
          ? 'connected'
          : state.state === 'unpaired'
            ? 'unpaired'
            : state.state === 'connecting' || state.state === 'idle'
              ? 'connecting'
              : 'down',
      host: hostState === 'connected' ? 'connected' : hostState === 'missing' ? 'missing' : 'unavailable',
      ...(problem === null ? {} : { problem: problem.slice(0, 2000) }),
      ...(host.cli === undefined ? {} : { cli: host.cli }),
    };
  }
}

/** The terminal a host message is about, if any. */
function termOf(message: HostToExtension): string | null {
  return 'termId' in message && typeof message.termId === 'string' ? message.termId : null;
}
