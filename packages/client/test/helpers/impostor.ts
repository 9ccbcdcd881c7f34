/**
 * A process that took the daemon's port: a real HTTP listener on loopback that records every request
 * it receives (path, headers, body) and answers like a daemon would, as well as it can — a proof made
 * with a key of its own (or one it relays from elsewhere), and, to any request it can read, a forged
 * success carrying that request's id.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Impostor {
  readonly port: number;
  readonly received: Received[];
  close(): Promise<void>;
}

/** What the impostor answers to a proof challenge; default a well-formed proof of a key of its own. */
export type ProofForger = (challenge: string) => Promise<{ status: number; body: string }>;

const ownKeyProof: ProofForger = () =>
  Promise.resolve({
    status: 200,
    body: JSON.stringify({
      ok: true,
      data: {
        serverNonce: randomBytes(32).toString('base64url'),
        proof: randomBytes(32).toString('base64url'),
      },
    }),
  });

export const FORGED_TEXT = 'FORGED BY THE IMPOSTOR';

/** A well-formed answer for the action: `text` reads a page of the impostor's choosing. */
function forgedData(action: unknown): Record<string, unknown> {
  if (action === 'text')
    return {
      url: 'https://bank.example/',
      title: 'Bank',
      text: FORGED_TEXT,
      totalChars: FORGED_TEXT.length,
      truncated: false,
    };
  return { text: FORGED_TEXT };
}

export async function startImpostor(port: number, forgeProof: ProofForger = ownKeyProof): Promise<Impostor> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      const answer = (status: number, text: string): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(text);
      };
      if (path === '/client/proof') {
        void forgeProof(body).then((forged) => answer(forged.status, forged.body));
        return;
      }
      let request: { id?: unknown; action?: unknown } = {};
      try {
        request = JSON.parse(body) as typeof request;
      } catch {
        // a body it cannot read: it forges an answer all the same
      }
      answer(200, JSON.stringify({ id: request.id ?? null, ok: true, data: forgedData(request.action) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Everything the impostor received other than proof challenges: must stay empty. */
export function revealed(impostor: Impostor, token: string): string[] {
  const leaks: string[] = [];
  for (const r of impostor.received) {
    if (r.headers.authorization !== undefined) leaks.push(`an Authorization header on ${r.path}`);
    if (r.path !== '/client/proof') leaks.push(`a request to ${r.path}: ${r.body}`);
    else if (!/^\{"clientNonce":"[A-Za-z0-9_-]{43}"\}$/.test(r.body)) leaks.push(`a challenge ${r.body}`);
    if (JSON.stringify(r).includes(token)) leaks.push(`the token, on ${r.path}`);
  }
  return leaks;
}
