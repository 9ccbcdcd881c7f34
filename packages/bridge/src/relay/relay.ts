/**
 * One tool's CDP connection (the pipe, or one WebSocket of the endpoint) relayed to the real browser
 * over its own DevTools WebSocket. Every request gets a relay-assigned id on the way down, so the
 * bridge's own requests live in the same id space without ever colliding with the tool's, and their
 * answers are consumed here, never forwarded. While the browser is away, requests wait in a bounded
 * queue; the first one that waits makes the keeper recover the browser, then this relay reconnects,
 * restores auto-attach (the bootstrap) and only after the browser acknowledged it sends what waited —
 * so the tool first hears of its new sessions (Target.attachedToTarget), then gets its answers.
 */
import type { CdpTransport } from '@bproxy/cdp/wire';
import type { BrowserKeeper } from '../lifecycle/browser-keeper';
import type { BridgeLogger } from '../log';
import {
  classifyDownstream,
  errorResponse,
  eventMessage,
  invalidRequestResponse,
  parseEvent,
  parseResponse,
  parseUpstream,
  successResponse,
  withId,
  type UpstreamRequest,
} from './cdp-frames';
import { WEAK_SIGNAL_METHODS } from './disconnect-signals';
import { PendingRequests } from './pending-requests';
import { RequestQueue } from './request-queue';
import { SessionTracker } from './session-tracker';

/** The auto-attach the tools themselves ask for, restored on the root session after a recovery. */
export const BOOTSTRAP_PARAMS = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true } as const;

export type BrowserCloseOutcome = 'forwarded' | 'short-circuit' | 'not-ours';

export interface RelayOptions {
  readonly name: string;
  readonly upstream: CdpTransport;
  readonly keeper: BrowserKeeper;
  readonly logger: BridgeLogger;
  readonly connect: (wsUrl: string) => Promise<CdpTransport>;
  readonly queueLimit: number;
  readonly queueTimeoutMs: number;
  /** The tool asked the browser to close; the bridge shuts down after this. */
  readonly onBrowserClose: (outcome: BrowserCloseOutcome) => void;
  readonly onUpstreamClosed: (reason: string) => void;
}

export class Relay {
  private downstream: CdpTransport | undefined;
  private downstreamGeneration = 0;
  private connecting: Promise<void> | undefined;
  private everConnected = false;
  private readonly pending = new PendingRequests();
  private readonly queue: RequestQueue;
  private readonly sessions = new SessionTracker();
  /** The tool set auto-attach with waitForDebuggerOnStart itself, so it resumes paused targets. */
  private toolResumesTargets = false;
  private closingBrowser = false;
  private closed = false;
  /** Called once when the browser closes this relay's connection (drain waits for it). */
  private downstreamGone: (() => void) | undefined;
  private readonly offDegraded: () => void;

  constructor(private readonly options: RelayOptions) {
    this.queue = new RequestQueue({
      limit: options.queueLimit,
      timeoutMs: options.queueTimeoutMs,
      onExpired: (request) =>
        this.toTool(
          errorResponse(
            request.id,
            `the browser did not come back within ${options.queueTimeoutMs} ms; ${request.method} was not sent`,
            request.sessionId,
          ),
        ),
    });
    options.upstream.onmessage = (text) => this.fromTool(text);
    options.upstream.onclose = (reason) => {
      this.close();
      options.onUpstreamClosed(reason);
    };
    this.offDegraded = options.keeper.onDegraded(() => this.browserLost());
  }

  /** Connects to the browser now when it is there (so events flow before the first request). */
  start(): void {
    if (this.options.keeper.state === 'connected') this.ensureDownstream();
  }

  private get live(): boolean {
    return (
      this.downstream !== undefined &&
      this.connecting === undefined &&
      this.downstreamGeneration === this.options.keeper.generation &&
      this.options.keeper.state === 'connected'
    );
  }

  private toTool(text: string): void {
    if (!this.closed) this.options.upstream.send(text);
  }

  private fromTool(text: string): void {
    const parsed = parseUpstream(text);
    if (!parsed.ok) {
      if (parsed.id !== undefined) this.toTool(errorResponse(parsed.id, 'not a CDP command', undefined));
      else {
        this.toTool(
          invalidRequestResponse(
            parsed.looseId,
            'a command needs an "id" that is a safe integer and a "method" (not relayed)',
          ),
        );
      }
      this.options.logger.debug({ relay: this.options.name }, 'dropped a message that is not a CDP command');
      return;
    }
    const request = parsed.request;
    if (request.method === 'Browser.close' && this.options.keeper.state === 'degraded') {
      // The browser is (likely) gone: recovering it only to close it again would loop.
      return this.shortCircuitClose(request);
    }
    if (request.method === 'Target.setAutoAttach' && request.sessionId === undefined) {
      this.toolResumesTargets =
        request.params.autoAttach === true && request.params.waitForDebuggerOnStart === true;
    }
    if (this.live) return this.dispatch(request);
    if (!this.queue.push(request)) {
      this.toTool(
        errorResponse(
          request.id,
          `${this.options.queueLimit} requests already wait for the browser to come back`,
          request.sessionId,
        ),
      );
      return;
    }
    this.ensureDownstream();
  }

  private dispatch(request: UpstreamRequest): void {
    if (request.method === 'Browser.close') this.browserClose(request);
    else this.forward(request, false);
  }

  private forward(request: UpstreamRequest, closesBrowser: boolean): void {
    const transport = this.downstream;
    if (transport === undefined) return;
    const id = this.pending.forTool(request.id, request.sessionId, closesBrowser);
    const text = withId(request.text, id);
    if (text === undefined) {
      this.pending.take(id);
      this.toTool(errorResponse(request.id, 'a command nested too deeply to relay', request.sessionId));
      return;
    }
    transport.send(text);
  }

  /** A request of the bridge's own; its answer never reaches the tool. */
  private bridgeRequest(
    method: string,
    params: Record<string, unknown>,
    sessionId: string | undefined,
    timeoutMs: number,
  ): Promise<string> {
    const transport = this.downstream;
    if (transport === undefined) return Promise.reject(new Error(`${method}: no browser connection`));
    const { id, answer } = this.pending.forBridge(method, timeoutMs);
    transport.send(
      JSON.stringify(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId }),
    );
    return answer;
  }

  private fromBrowser(text: string): void {
    const message = classifyDownstream(text);
    if (message.kind === 'response') {
      const entry = this.pending.take(message.id);
      if (entry === undefined) return;
      if (entry.kind === 'bridge') return entry.resolve(text);
      const answer = withId(text, entry.id);
      this.toTool(answer ?? errorResponse(entry.id, 'an answer nested too deeply to relay', entry.sessionId));
      if (entry.closesBrowser) this.options.onBrowserClose('forwarded');
      return;
    }
    if (message.kind !== 'event') return;
    if (WEAK_SIGNAL_METHODS.includes(message.method))
      this.options.keeper.signals.recordWeak(message.method, text);
    if (message.method === 'Target.attachedToTarget') this.targetAttached(text);
    else if (message.method === 'Target.detachedFromTarget') {
      const event = parseEvent(text);
      if (event !== undefined) this.sessions.detached(event.params);
    }
    this.toTool(text);
  }

  private targetAttached(text: string): void {
    const event = parseEvent(text);
    if (event === undefined) return;
    const session = this.sessions.attached(event.params, event.sessionId);
    // Targets auto-attached with waitForDebuggerOnStart stay paused until someone resumes them; a tool
    // that never asked for that pause would never do it.
    if (session !== undefined && event.params.waitingForDebugger === true && !this.toolResumesTargets) {
      this.bridgeRequest('Runtime.runIfWaitingForDebugger', {}, session.sessionId, 10_000).catch(
        () => undefined,
      );
    }
  }

  private ensureDownstream(): void {
    if (this.connecting !== undefined || this.closed) return;
    this.connecting = this.connectDownstream().then(
      () => {
        this.connecting = undefined;
        // Live from here on: what waited goes first, later requests go straight through.
        for (const request of this.queue.drain()) this.dispatch(request);
      },
      (error: unknown) => {
        this.connecting = undefined;
        this.failQueue(error instanceof Error ? error.message : String(error));
      },
    );
  }

  private async connectDownstream(): Promise<void> {
    const { keeper } = this.options;
    if (keeper.state === 'degraded') await keeper.recover();
    const browser = keeper.current;
    if (keeper.state !== 'connected' || browser === undefined)
      throw new Error(`the bridge is ${keeper.state}`);
    const generation = keeper.generation;
    const transport = await this.options.connect(browser.wsUrl);
    if (this.closed || generation !== keeper.generation || keeper.state !== 'connected') {
      transport.close();
      if (!this.closed) throw new Error('the browser went away again while the bridge reconnected');
      return;
    }
    this.attachDownstream(transport, generation);
    const recovering = this.everConnected;
    this.everConnected = true;
    if (recovering) await this.bootstrap();
  }

  private attachDownstream(transport: CdpTransport, generation: number): void {
    this.downstream = transport;
    this.downstreamGeneration = generation;
    transport.onmessage = (text) => this.fromBrowser(text);
    transport.onclose = (reason) => {
      if (this.downstream !== transport) return;
      this.downstream = undefined;
      this.downstreamGone?.();
      if (this.closingBrowser) {
        // The browser closed as asked, perhaps before answering: answer for it.
        for (const answer of this.pending.takeBrowserCloses()) this.toTool(answer);
        this.options.onBrowserClose('forwarded');
        return;
      }
      this.failPending('the browser went away before answering; the next request brings it back');
      this.options.keeper.reportLoss('ConnectionClosed', reason);
    };
  }

  private async bootstrap(): Promise<void> {
    const { keeper, logger, name } = this.options;
    logger.info({ ...keeper.fields(), relay: name, recoveryBootstrap: 'started' }, 'restoring auto-attach');
    const answer = await this.bridgeRequest(
      'Target.setAutoAttach',
      { ...BOOTSTRAP_PARAMS },
      undefined,
      10_000,
    ).then(
      (text) => parseResponse(text).error,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (answer !== undefined) {
      logger.error(
        { ...keeper.fields(), relay: name, recoveryBootstrap: 'failed', error: answer },
        'bootstrap failed',
      );
      keeper.close(`the bootstrap after recovery failed: ${answer}`, true);
      throw new Error(`the bootstrap after recovery failed: ${answer}`);
    }
    logger.info(
      { ...keeper.fields(), relay: name, recoveryBootstrap: 'acknowledged', queued: this.queue.size },
      'auto-attach restored; sending the requests that waited',
    );
  }

  private shortCircuitClose(request: UpstreamRequest): void {
    const { keeper, logger } = this.options;
    this.toTool(successResponse(request.id, request.sessionId));
    logger.info(
      { ...keeper.fields(), shortCircuitBrowserClose: true, requestId: request.id },
      'Browser.close answered by the bridge',
    );
    this.options.onBrowserClose('short-circuit');
  }

  /** Browser.close on a live connection: a browser the bridge launched is closed; any other is kept. */
  private browserClose(request: UpstreamRequest): void {
    const { keeper, logger } = this.options;
    const browser = keeper.current;
    if (browser === undefined) return this.shortCircuitClose(request);
    if (browser.ownership === 'launched') {
      logger.info(
        { ...keeper.fields(), shortCircuitBrowserClose: false, requestId: request.id },
        'Browser.close forwarded',
      );
      this.closingBrowser = true;
      this.forward(request, true);
      return;
    }
    // Never close a browser the bridge did not start: the tool only loses its connection.
    this.toTool(successResponse(request.id, request.sessionId));
    logger.info(
      { ...keeper.fields(), shortCircuitBrowserClose: false, browserKept: true, requestId: request.id },
      'Browser.close not forwarded: the browser is not ours',
    );
    this.options.onBrowserClose('not-ours');
  }

  /** The keeper declared the browser gone: drop the dead connection and tell the tool its sessions ended. */
  private browserLost(): void {
    const transport = this.downstream;
    this.downstream = undefined;
    transport?.close();
    this.failPending('the browser went away before answering; the next request brings it back');
    this.announceSessionsEnded();
  }

  /** Tells the tool that every session it still holds ended, innermost first, as a closing browser does. */
  private announceSessionsEnded(): void {
    for (const session of this.sessions.takeAllInnermostFirst()) {
      this.toTool(
        eventMessage(
          'Target.detachedFromTarget',
          { sessionId: session.sessionId, targetId: session.targetId },
          session.parent,
        ),
      );
    }
  }

  private failPending(message: string): void {
    for (const answer of this.pending.failAll(message)) this.toTool(answer);
  }

  private failQueue(message: string): void {
    for (const request of this.queue.drain()) {
      this.toTool(
        errorResponse(request.id, `the browser could not be brought back: ${message}`, request.sessionId),
      );
    }
  }

  /** Ends this relay: the browser connection is dropped (the browser itself is the runtime's business). */
  close(): void {
    if (this.closed) return;
    this.failPending('the bridge is closing');
    this.failQueue('the bridge is closing');
    this.closed = true;
    this.offDegraded();
    const transport = this.downstream;
    this.downstream = undefined;
    transport?.close();
  }

  /** Closes the tool's side too (the pipe or the WebSocket). */
  closeUpstream(): void {
    this.close();
    this.options.upstream.close();
  }

  /**
   * The bridge is closing. After a Browser.close the browser ends its targets and then closes every
   * DevTools connection: until it closes this one (at most `drainMs`), its events still reach the
   * tool, as they would from Chrome. Then the tool hears of every session the browser did not end
   * (a browser that stays, one that never said), and its side is closed.
   */
  async finish(drainMs: number): Promise<void> {
    if (this.closed) return;
    if (drainMs > 0 && this.downstream !== undefined) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        this.downstreamGone = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.downstreamGone = undefined;
    }
    if (this.closed) return;
    for (const answer of this.pending.takeBrowserCloses()) this.toTool(answer);
    this.failPending('the bridge is closing');
    this.announceSessionsEnded();
    this.closeUpstream();
  }
}
