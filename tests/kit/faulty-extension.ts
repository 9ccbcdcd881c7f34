/**
 * A faulty extension for the real-process fault tests: pairing over /pair/claim as the extension
 * would, and a scripted extension over a real WebSocket that reconnects by itself (capped backoff),
 * keeps an execution table across its connections, and holds the requests a test selects.
 */
import WebSocket from 'ws';
import {
  DEFAULT_EXTENSION_ID,
  PROTOCOL_VERSION,
  wsAuthProtocol,
  type BproxyForwardedRequest,
} from '@bproxy/protocol';

const ORIGIN = `chrome-extension://${DEFAULT_EXTENSION_ID}`;

/** Claims a pairing code like the popup does and returns the extension token. */
export async function claimToken(port: number, code: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/pair/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({ code }),
  });
  const json = (await res.json()) as { ok: boolean; data?: { extensionToken: string } };
  if (!json.ok || !json.data) throw new Error(`pairing failed: ${JSON.stringify(json)}`);
  return json.data.extensionToken;
}

/**
 * An extension stand-in: reconnects whenever its socket closes (100 ms doubling to 1 s), executes each
 * request id once (replays answered from its table), and holds the requests `hold` selects until
 * `release` — answering on whatever socket is current then, like the real one.
 */
export class ReconnectingExtension {
  readonly received: BproxyForwardedRequest[] = [];
  readonly executions = new Map<string, number>();
  connections = 0;
  hold: (req: BproxyForwardedRequest) => boolean = () => false;
  private socket: WebSocket | null = null;
  private stopped = false;
  private delay = 100;
  private nextTab = 1;
  private readonly answers = new Map<string, Promise<Record<string, unknown>>>();
  private readonly holds = new Map<string, () => void>();

  constructor(
    private readonly port: number,
    private readonly token: string,
    readonly instanceId = 'faultsext01',
  ) {}

  start(): void {
    this.stopped = false;
    this.open();
  }

  get connected(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  held(id: string): boolean {
    return this.holds.has(id);
  }

  release(id: string): void {
    this.holds.get(id)?.();
    this.holds.delete(id);
  }

  stop(): void {
    this.stopped = true;
    for (const id of [...this.holds.keys()]) this.release(id);
    this.socket?.terminate();
    this.socket = null;
  }

  private open(): void {
    if (this.stopped) return;
    const socket = new WebSocket(
      `ws://127.0.0.1:${this.port}/ws`,
      ['bproxy.v1', wsAuthProtocol(this.token)],
      {
        headers: { origin: ORIGIN },
      },
    );
    this.socket = socket;
    socket.on('open', () => {
      socket.send(
        JSON.stringify({
          type: 'hello',
          protocolVersion: PROTOCOL_VERSION,
          client: { instanceId: this.instanceId, kind: 'extension', name: 'faults' },
        }),
      );
    });
    socket.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as { type: string; request?: BproxyForwardedRequest };
      if (msg.type === 'welcome') {
        this.connections++;
        this.delay = 100;
      }
      if (msg.type === 'request' && msg.request) void this.onRequest(msg.request);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      const wait = this.delay;
      this.delay = Math.min(1_000, this.delay * 2);
      setTimeout(() => this.open(), wait);
    });
  }

  private answerFor(req: BproxyForwardedRequest): Record<string, unknown> {
    if (req.action === 'tab.open')
      return { ok: true, data: { tabId: this.nextTab++, url: String(req.params.url), title: 'Page' } };
    if (req.action === 'tab.close') return { ok: true, data: { closed: true } };
    if (req.action === 'text')
      return {
        ok: true,
        data: { url: 'http://x/', title: 'Page', text: 'hello', totalChars: 5, truncated: false },
      };
    return { ok: true, data: { url: 'http://x/', title: 'Page', navigated: false } };
  }

  private async onRequest(req: BproxyForwardedRequest): Promise<void> {
    this.received.push(req);
    let answer = this.answers.get(req.id);
    if (!answer) {
      if (req.deadline <= Date.now()) return;
      this.executions.set(req.id, (this.executions.get(req.id) ?? 0) + 1);
      const gate = this.hold(req) ? new Promise<void>((r) => this.holds.set(req.id, r)) : null;
      answer = (async () => {
        if (gate) await gate;
        return this.answerFor(req);
      })();
      this.answers.set(req.id, answer);
    }
    const body = await answer;
    if (this.socket?.readyState === WebSocket.OPEN)
      this.socket.send(JSON.stringify({ type: 'response', id: req.id, ...body }));
  }
}
