/**
 * The daemon side of `npm run bench:daemon`, in its own process so the load generator does not share
 * its event loop: a real daemon (fast pacing, silent logs) and a fake extension over a real WebSocket
 * that answers every forwarded request at once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { DEFAULT_EXTENSION_ID, PROTOCOL_VERSION, wsAuthProtocol, type DaemonMessage } from '@bproxy/protocol';
import { buildServer } from '../packages/daemon/src/http/server';
import { createLogger } from '../packages/daemon/src/logs/logger';

const token = randomBytes(32).toString('hex');
const extensionToken = randomBytes(32).toString('base64url');
const { logger } = createLogger({ level: 'silent' });
const server = await buildServer({
  port: 0,
  daemonToken: token,
  extensionIds: [DEFAULT_EXTENSION_ID],
  extensionTokens: { get: () => extensionToken, set: async () => undefined },
  logger,
  tmpRoot: mkdtempSync(join(tmpdir(), 'bproxy-bench-')),
  pacingOverride: 'fast',
});
const port = await server.listen();

const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, ['bproxy.v1', wsAuthProtocol(extensionToken)], {
  headers: { origin: `chrome-extension://${DEFAULT_EXTENSION_ID}` },
});
let nextTab = 1;
ws.on('message', (raw) => {
  const msg = JSON.parse(raw.toString()) as DaemonMessage;
  if (msg.type === 'welcome') process.send?.({ type: 'ready', port, token });
  if (msg.type !== 'request') return;
  const r = msg.request;
  const data =
    r.action === 'tab.open'
      ? { tabId: nextTab++, url: 'http://bench/', title: 'bench' }
      : { url: 'http://bench/', title: 'bench', navigated: false };
  ws.send(JSON.stringify({ type: 'response', id: r.id, ok: true, data }));
});
ws.on('open', () =>
  ws.send(
    JSON.stringify({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      client: { instanceId: 'benchfake01', kind: 'extension', name: 'fake' },
    }),
  ),
);
process.on('message', (m: { type: string }) => {
  if (m.type === 'rss') {
    const mem = process.memoryUsage();
    process.send?.({ type: 'rss', rss: mem.rss, heapUsed: mem.heapUsed });
  }
});
process.on('SIGINT', () => process.exit(0));
