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
  private readonly waiting = new Map<string, (answer: PanelAnswer) => void>();
  private readonly reconnected = new Set<() => void>();
  private counter = 0;

  constructor(private readonly runtime: PortApi) {}

  connect(): void {
    const port = this.runtime.connect({ name: PANEL_PORT });
    this.port = port;
    port.onMessage.addListener((raw) => {
      const parsed = WorkerToPanelSchema.safeParse(raw);
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'answer') {
        this.waiting.get(message.requestId)?.(message.answer);
        this.waiting.delete(message.requestId);
        return;
      }
      for (const listener of [...this.listeners]) listener(message);
    });
    port.onDisconnect.addListener(() => {
      if (this.port !== port) return;
      this.port = null;
      for (const answer of [...this.waiting.values()])
        answer({ ok: false, reason: 'the extension restarted; try again' });
      this.waiting.clear();
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
    const requestId = `p${++this.counter}`;
    return new Promise((resolve) => {
      if (!this.port) {
        resolve({ ok: false, reason: 'not connected to the extension' });
        return;
      }
      this.waiting.set(requestId, resolve);
      this.send({ type: 'user', requestId, request });
    });
  }
}
