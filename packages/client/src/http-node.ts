/**
 * POST / over node:http, on connections the daemon proved itself on. Each connection is one socket
 * behind an agent of its own that can open that socket only once: the client sends the proof's
 * challenge on it (proof.ts), and the bearer token and the request go on that same socket, never on
 * another. When the socket closes (the daemon closed an idle keep-alive, or went away), the agent
 * cannot open a new one; the next request takes a new connection, which proves the daemon again.
 *
 * One-shot clients (a CLI run) use one connection per call and close it; long-lived ones (the MCP
 * server, the agent) keep up to `maxSockets` proven connections, so an agent's clicks pay neither a
 * TCP handshake nor a proof each. node:http and node:net are imported on first use: a static import
 * would cost the compiled CLI ~3 ms at every start, whether or not it talks to the daemon.
 */
import type * as HttpModule from 'node:http';
import type { Agent, OutgoingHttpHeaders } from 'node:http';
import type * as NetModule from 'node:net';
import type { Socket } from 'node:net';
import { CLIENT_PROOF_PATH, PROOF_REPLY_LIMIT, checkProof, proofChallenge } from './proof';
import { TransportError, type HttpReply, type HttpTarget, type KeepAlive, type Transport } from './http';

type Http = typeof HttpModule;
type Net = typeof NetModule;

interface Connection {
  /** The daemon this connection was proved for: its port and token. */
  readonly key: string;
  readonly agent: Agent;
  socket: Socket | null;
  /** Its socket closed, or the pool dropped it: never used again. */
  closed: boolean;
}

export async function nodeTransport(keepAlive: KeepAlive | null): Promise<Transport> {
  const [http, net] = await Promise.all([import('node:http'), import('node:net')]);
  const pool = new ConnectionPool(http, net, keepAlive);
  return {
    post: (target, body, timeoutMs) => pool.post(target, body, timeoutMs),
    reset: () => pool.reset(),
    close: () => pool.close(),
  };
}

function keyOf(target: HttpTarget): string {
  return `${target.port}\n${target.token}`;
}

class ConnectionPool {
  private readonly open = new Set<Connection>();
  private idle: Connection[] = [];
  private readonly waiters = new Set<() => void>();
  private keep: boolean;
  private readonly max: number;

  constructor(
    private readonly http: Http,
    private readonly net: Net,
    keepAlive: KeepAlive | null,
  ) {
    this.keep = keepAlive !== null;
    this.max = keepAlive === null ? Number.POSITIVE_INFINITY : Math.max(1, keepAlive.maxSockets);
  }

  async post(target: HttpTarget, body: string, timeoutMs: number): Promise<HttpReply> {
    const until = Date.now() + timeoutMs;
    const connection = await this.acquire(target, until);
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      authorization: `Bearer ${target.token}`,
    };
    let reply: HttpReply;
    try {
      reply = await send(this.http, connection, target.port, '/', headers, body, until - Date.now(), null);
    } catch (error) {
      this.discard(connection);
      throw error;
    }
    this.release(connection);
    return reply;
  }

  /** Drops every connection (the daemon behind them went away); later calls open and prove new ones. */
  reset(): void {
    for (const connection of [...this.open]) this.discard(connection);
  }

  close(): void {
    this.reset();
    // A closed transport may still be asked for a last request: on a connection of its own, not kept.
    this.keep = false;
  }

  /** An idle proven connection to this daemon, else a new one once proven, else the next one freed. */
  private async acquire(target: HttpTarget, until: number): Promise<Connection> {
    const key = keyOf(target);
    for (;;) {
      const idle = this.idle;
      this.idle = [];
      let found: Connection | null = null;
      for (const connection of idle) {
        const usable = connection.key === key && !connection.closed && this.open.has(connection);
        if (usable && found === null) found = connection;
        else if (usable) this.idle.push(connection);
        else this.discard(connection);
      }
      if (found !== null) return found;
      if (this.open.size < this.max) {
        const connection = this.connect(key, target.port);
        try {
          await this.prove(connection, target, until);
        } catch (error) {
          this.discard(connection);
          throw error;
        }
        return connection;
      }
      await this.freed(until);
    }
  }

  /** A connection whose agent may open exactly one socket, to 127.0.0.1:port. */
  private connect(key: string, port: number): Connection {
    const agent = new this.http.Agent({ keepAlive: true, maxSockets: 1, maxFreeSockets: 1 });
    const connection: Connection = { key, agent, socket: null, closed: false };
    agent.createConnection = () => {
      if (connection.socket !== null) {
        // The proven socket is gone: a socket that never connects, so nothing leaves this process.
        const spent = new this.net.Socket();
        process.nextTick(() =>
          spent.destroy(new TransportError('stale-socket', 'the proven connection to the daemon closed')),
        );
        return spent;
      }
      const socket = this.net.connect({ host: '127.0.0.1', port });
      connection.socket = socket;
      socket.once('close', () => {
        connection.closed = true;
      });
      return socket;
    };
    this.open.add(connection);
    return connection;
  }

  /** The challenge, with no token and no request, on the connection's one socket; then the check. */
  private async prove(connection: Connection, target: HttpTarget, until: number): Promise<void> {
    const challenge = proofChallenge();
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(challenge.body),
    };
    const reply = await send(
      this.http,
      connection,
      target.port,
      CLIENT_PROOF_PATH,
      headers,
      challenge.body,
      until - Date.now(),
      PROOF_REPLY_LIMIT,
    );
    await checkProof(reply, target, challenge.clientNonce);
  }

  private release(connection: Connection): void {
    if (!this.keep || connection.closed || !this.open.has(connection)) return this.discard(connection);
    this.idle.push(connection);
    this.wake();
  }

  private discard(connection: Connection): void {
    connection.closed = true;
    connection.agent.destroy();
    this.idle = this.idle.filter((c) => c !== connection);
    if (this.open.delete(connection)) this.wake();
  }

  private wake(): void {
    const [first] = this.waiters;
    if (first === undefined) return;
    this.waiters.delete(first);
    first();
  }

  /** Waits until a connection is released or dropped, or rejects with a timeout at `until`. */
  private freed(until: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          this.waiters.delete(waiter);
          reject(new TransportError('timeout', 'no connection to the daemon came free in time'));
        },
        Math.max(0, until - Date.now()),
      );
      this.waiters.add(waiter);
    });
  }
}

function send(
  http: Http,
  connection: Connection,
  port: number,
  path: string,
  headers: OutgoingHttpHeaders,
  body: string,
  timeoutMs: number,
  limit: number | null,
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path, agent: connection.agent, headers },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (limit !== null && size > limit) {
            req.destroy(
              new TransportError('not-proven', `what listens on port ${port} sent an oversized answer`),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    const timer = setTimeout(
      () => req.destroy(new TransportError('timeout', `no answer within ${Math.round(timeoutMs / 1000)} s`)),
      Math.max(0, timeoutMs),
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // Our own failures (the timeout, a spent connection, an oversized answer) pass through as they are.
      if (error instanceof TransportError) return reject(error);
      const failure =
        error.code === 'ECONNREFUSED'
          ? 'refused'
          : error.code === 'ECONNRESET' && req.reusedSocket
            ? 'stale-socket'
            : 'failed';
      reject(new TransportError(failure, error.message));
    });
    req.end(body);
  });
}
