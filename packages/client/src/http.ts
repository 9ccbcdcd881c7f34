/**
 * POST / to the daemon, after the daemon proved itself (proof.ts): what a transport is (open-transport.ts picks one per runtime: http-fetch.ts,
 * http-node.ts). Every transport reports failures the same way, as a TransportError that says what
 * happened; the client decides what that means (daemon-client.ts).
 */

export interface HttpReply {
  readonly status: number;
  readonly body: string;
}

export interface HttpTarget {
  readonly port: number;
  readonly token: string;
}

export type TransportFailure =
  /** Nothing listens on the port: no daemon there (any more). */
  | 'refused'
  /** A kept-alive socket the daemon had already closed: the request never reached it. */
  | 'stale-socket'
  /** No answer within the time given. */
  | 'timeout'
  /** What answered on the port could not prove it holds the daemon token: nothing was sent to it. */
  | 'not-proven'
  /** The daemon proved itself, and is of a version this client does not work with: nothing was sent. */
  | 'version-mismatch'
  | 'failed';

export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly failure: TransportFailure,
    message: string,
    /** For `version-mismatch`: the version the daemon named (null: it named none). */
    readonly daemonVersion: string | null = null,
  ) {
    super(message);
  }
}

export interface Transport {
  /**
   * POST `body` to the daemon on 127.0.0.1 with its bearer token; rejects with TransportError. The
   * token and the body go only on a connection the daemon proved itself on (proof.ts).
   */
  post(target: HttpTarget, body: string, timeoutMs: number): Promise<HttpReply>;
  /** Drops kept-alive connections (the daemon behind them went away); later calls open new ones. */
  reset(): void;
  /** Drops kept-alive connections and keeps none from now on. */
  close(): void;
}

/** Kept-alive connections between calls (long-lived clients), at most `maxSockets` at once. */
export interface KeepAlive {
  readonly maxSockets: number;
}
