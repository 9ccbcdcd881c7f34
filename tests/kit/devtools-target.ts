/**
 * One DevTools target reached the way a debugger reaches any page: listed by the browser's
 * `/json/list`, attached over its own WebSocket. The headed tier needs it because Playwright's page
 * list shows neither the extension's popup nor its side panel; here they are ordinary targets. Input
 * goes through `Input.dispatch*Event`, which Chromium treats as the user's own (a gesture that
 * `chrome.sidePanel.open()` accepts). Every call has a deadline.
 */
import WebSocket from 'ws';
import { until } from './wait';

export interface TargetInfo {
  id: string;
  type: string;
  url: string;
  title: string;
  webSocketDebuggerUrl?: string;
}

/** The browser's targets, as `/json/list` gives them. */
export async function listTargets(port: number): Promise<TargetInfo[]> {
  const res = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`/json/list answered ${res.status}`);
  return (await res.json()) as TargetInfo[];
}

/** Waits for a target whose URL `matches`; `except` names targets that do not count (an older one). */
export async function waitForTarget(
  port: number,
  matches: (url: string) => boolean,
  options: { timeoutMs?: number; except?: ReadonlySet<string>; what?: string } = {},
): Promise<TargetInfo> {
  return until(
    options.what ?? 'a DevTools target',
    async () =>
      (await listTargets(port)).find(
        (t) => matches(t.url) && !options.except?.has(t.id) && t.webSocketDebuggerUrl !== undefined,
      ),
    options.timeoutMs ?? 10_000,
  );
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class DevtoolsTarget {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  private constructor(
    readonly info: TargetInfo,
    private readonly socket: WebSocket,
  ) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      if (waiting === undefined) return;
      this.pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
    });
    socket.on('close', () => {
      this.closed = true;
      for (const [, waiting] of this.pending) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error(`the target ${info.url} went away`));
      }
      this.pending.clear();
    });
  }

  static async attach(info: TargetInfo, timeoutMs = 10_000): Promise<DevtoolsTarget> {
    const url = info.webSocketDebuggerUrl;
    if (url === undefined) throw new Error(`target ${info.url} has no WebSocket`);
    const socket = new WebSocket(url, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no WebSocket to ${info.url}`)), timeoutMs);
      socket.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return new DevtoolsTarget(info, socket);
  }

  get gone(): boolean {
    return this.closed;
  }

  send<T = unknown>(method: string, params: object = {}, timeoutMs = 10_000): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`the target ${this.info.url} went away`));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} got no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: (v) => resolve(v as T), reject, timer });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Evaluates `expression` in the page (promises awaited) and returns its value. */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = await this.send<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (answer.exceptionDetails)
      throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
    return answer.result.value as T;
  }

  /** The centre of the first element matching `selector`, in the page's CSS pixels (undefined if none or hidden). */
  async centre(selector: string): Promise<{ x: number; y: number } | undefined> {
    const at = await this.evaluate<{ x: number; y: number } | null>(`(() => {
      const el = document.querySelector(${JSON.stringify(selector)});
      if (!el) return null;
      el.scrollIntoView({ block: 'center' });
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return null;
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    })()`);
    return at ?? undefined;
  }

  /** A real click (mouse moved, pressed, released) in the middle of `selector`, once it is visible. */
  async click(selector: string, timeoutMs = 10_000): Promise<void> {
    const at = await until(`${selector} to be visible`, () => this.centre(selector), timeoutMs);
    const common = { x: at.x, y: at.y, button: 'left', clickCount: 1 };
    await this.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
    await this.send('Input.dispatchMouseEvent', { type: 'mousePressed', buttons: 1, ...common });
    await this.send('Input.dispatchMouseEvent', { type: 'mouseReleased', buttons: 0, ...common });
  }

  /** Types `text` as keys (Enter for "\n") into what has the focus. */
  async type(text: string): Promise<void> {
    for (const ch of text) {
      if (ch === '\n') await this.press('Enter', '\r', 13);
      else
        await this.send('Input.dispatchKeyEvent', { type: 'keyDown', text: ch, unmodifiedText: ch, key: ch });
      if (ch !== '\n') await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key: ch });
    }
  }

  async press(key: string, text: string, code: number): Promise<void> {
    await this.send('Input.dispatchKeyEvent', {
      type: 'keyDown',
      key,
      text,
      windowsVirtualKeyCode: code,
      nativeVirtualKeyCode: code,
    });
    await this.send('Input.dispatchKeyEvent', { type: 'keyUp', key, windowsVirtualKeyCode: code });
  }

  /** A PNG of the page as it is drawn. */
  async screenshot(): Promise<Buffer> {
    const { data } = await this.send<{ data: string }>('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  }

  close(): void {
    if (!this.closed) this.socket.close();
    this.closed = true;
  }
}
