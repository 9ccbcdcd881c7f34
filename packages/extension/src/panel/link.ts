/**
 * The panel's port to the service worker: messages validated both ways (panel-messages.ts), requests
 * that answer by id, and a reconnect when the worker restarts (a stopped MV3 worker drops the port;
 * connecting again wakes it). Views subscribe to what they show.
 */
import {
  PANEL_PORT,
  WorkerToPanelSchema,
  type PanelAnswer,
  type PanelToWorker,
  type PanelUserRequest,
  type WorkerToPanel,
} from '../common/panel-messages';
import { PendingAnswers } from '../common/pending-answers';

export interface PortApi {
  connect(info: { name: string }): {
    postMessage(message: unknown): void;
    onMessage: { addListener(listener: (message: unknown) => void): void };
    onDisconnect: { addListener(listener: () => void): void };
  };
}

type Listener = (message: WorkerToPanel) => void;

export class PanelLink {
  private port: ReturnType<PortApi['connect']> | null = null;
  private readonly listeners = new Set<Listener>();
  /** The user's requests waiting for the worker's answer: no deadline of their own (the worker's leg to the daemon has one). */
  private readonly waiting = new PendingAnswers<PanelAnswer>({
    prefix: 'p',
    unanswered: () => ({ ok: false, reason: 'the extension restarted; try again' }),
  });
  private readonly reconnected = new Set<() => void>();

  constructor(private readonly runtime: PortApi) {}

  connect(): void {
    const port = this.runtime.connect({ name: PANEL_PORT });
    this.port = port;
    port.onMessage.addListener((raw) => {
      const parsed = WorkerToPanelSchema.safeParse(raw);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'answer') {
        this.waiting.answer(message.requestId, message.answer);
        return;
      }
      for (const listener of [...this.listeners]) listener(message);
    });
    port.onDisconnect.addListener(() => {
      if (this.port !== port) return;
      this.port = null;
      this.waiting.settleAll('the worker went away');
      // The worker went away (stopped, or reloaded): connect again, which starts it.
      setTimeout(() => {
        this.connect();
        for (const listener of [...this.reconnected]) listener();
      }, 200);
    });
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after the port was opened again (views ask for what they missed). */
  onReconnect(listener: () => void): void {
    this.reconnected.add(listener);
  }

  send(message: PanelToWorker): void {
    this.port?.postMessage(message);
  }

  /** A request on the user's behalf (share, resume, take over, close); resolves with the daemon's answer. */
  user(request: PanelUserRequest): Promise<PanelAnswer> {
    if (!this.port) return Promise.resolve({ ok: false, reason: 'not connected to the extension' });
    return this.waiting.request((requestId) => this.send({ type: 'user', requestId, request }));
  }
}
