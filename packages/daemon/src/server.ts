/**
 * buildServer(opts): the Fastify app and the object graph behind it. Pure: it reads no environment and
 * touches no file; the lifecycle (main.ts) hands it tokens, stores and a logger.
 * (Work in progress: routes are being added.)
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerOptions } from './server-options';

export interface IssuedPairingCode {
  code: string;
  issuedAt: number;
  expiresAt: number;
}

export interface DaemonServer {
  readonly app: FastifyInstance;
  /** Binds 127.0.0.1 and resolves with the port actually bound. */
  listen(): Promise<number>;
  /** Issues a fresh one-time pairing code (replacing an unclaimed one). */
  issuePairingCode(): IssuedPairingCode;
  /** Stops taking requests (503), drains those in flight, closes driver connections and the listener. */
  shutdown(): Promise<void>;
}

export async function buildServer(opts: ServerOptions): Promise<DaemonServer> {
  const app = Fastify({ logger: false });
  return {
    app,
    async listen() {
      await app.listen({ host: '127.0.0.1', port: opts.port });
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : opts.port;
    },
    issuePairingCode() {
      const now = Date.now();
      return { code: 'ABCD-EFGH', issuedAt: now, expiresAt: now + 300_000 };
    },
    async shutdown() {
      await app.close();
    },
  };
}
