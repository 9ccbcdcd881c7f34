/**
 * The daemon's side of a linked transport pair, as the tests play it: sends forwarded requests, waits
 * for their responses, and records every push (hello, navigation, tab_closed).
 */
import {
  createLinkedTransportPair,
  type ActionName,
  type BproxyForwardedRequest,
  type DaemonMessage,
  type DriverMessage,
  type DriverResponseMessage,
  type HumanWaiver,
  type MessageTransport,
} from '@bproxy/protocol';

let counter = 0;

export interface RequestOptions {
  tabId?: number;
  /** Sent with tabId as the daemon does once a person resumed the session for the page. */
  humanWaiver?: HumanWaiver;
  id?: string;
  /** Milliseconds from now (default 15 s); negative for a deadline already past. */
  timeoutMs?: number;
}

export class FakeDaemon {
  readonly driverEnd: MessageTransport<DaemonMessage, DriverMessage>;
  readonly end: MessageTransport<DriverMessage, DaemonMessage>;
  readonly messages: DriverMessage[] = [];
  closedReason: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor() {
    const [driverEnd, daemonEnd] = createLinkedTransportPair<DaemonMessage, DriverMessage>();
    this.driverEnd = driverEnd;
    this.end = daemonEnd;
    daemonEnd.onmessage = (message) => {
      this.messages.push(message);
      for (const listener of [...this.listeners]) listener();
    };
    daemonEnd.onclose = (reason) => {
      this.closedReason = reason;
      for (const listener of [...this.listeners]) listener();
    };
  }

  send(request: BproxyForwardedRequest): void {
    this.end.send({ type: 'request', request });
  }

  forwarded(
    action: ActionName,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): BproxyForwardedRequest {
    const request = {
      id: options.id ?? `req-${++counter}`,
      action,
      params,
      deadline: Date.now() + (options.timeoutMs ?? 15_000),
      ...(options.tabId === undefined
        ? {}
        : {
            target: {
              tabId: options.tabId,
              ...(options.humanWaiver === undefined ? {} : { humanWaiver: options.humanWaiver }),
            },
          }),
    };
    return request as BproxyForwardedRequest;
  }

  /** Sends a request and resolves with its (first) response. */
  async request(
    action: ActionName,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<DriverResponseMessage> {
    const request = this.forwarded(action, params, options);
    const seen = this.responses(request.id).length;
    this.send(request);
    return this.waitFor(
      () => this.responses(request.id)[seen],
      `response to ${action} ${request.id}`,
      (options.timeoutMs ?? 15_000) + 5_000,
    );
  }

  /** Like request, but expects success and returns the data. */
  async ok<T = Record<string, unknown>>(
    action: ActionName,
    params: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<T> {
    const response = await this.request(action, params, options);
    if (!response.ok) throw new Error(`${action} failed: ${response.error.code} ${response.error.message}`);
    return response.data as T;
  }

  responses(id: string): DriverResponseMessage[] {
    return this.messages.filter((m): m is DriverResponseMessage => m.type === 'response' && m.id === id);
  }

  /** Resolves with the first truthy value of `check`, re-run on every message; bounded in time. */
  waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const evaluate = (): void => {
        const value = check();
        if (value !== undefined && value !== false) {
          finish();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.listeners.delete(evaluate);
      };
      this.listeners.add(evaluate);
      evaluate();
    });
  }
}
