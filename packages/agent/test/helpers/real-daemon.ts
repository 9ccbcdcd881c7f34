/**
 * A real daemon (buildServer on a real listener, port 0) whose browser is the CDP driver on a real
 * headless Chromium, and a static server for tests/fixtures/pages — what the agent drives in the
 * browser tests. The agent reaches the daemon through the real daemon client over HTTP with its token.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DaemonClient } from '@bproxy/client';
import { startCdpDriver } from '@bproxy/cdp';
import { buildServer, createLogger, type DaemonServer } from '@bproxy/daemon';
import {
  DEFAULT_EXTENSION_ID,
  createLinkedTransportPair,
  type DaemonMessage,
  type DriverMessage,
} from '@bproxy/protocol';
import { chromiumPath, closeBrowserWithin } from '../../../../tests/kit/chromium';

const PAGES = fileURLToPath(new URL('../../../../tests/fixtures/pages', import.meta.url));
export interface RealDaemon {
  readonly client: DaemonClient;
  readonly pagesUrl: (page: string) => string;
  /** A session with one tab on `page` — what a user sharing their tab hands the agent. */
  sharedTab(page: string): Promise<string>;
  close(): Promise<void>;
}

export async function startRealDaemon(): Promise<RealDaemon> {
  const pages = createServer((req, res) => {
    const name = ((req.url ?? '/').split('?')[0] ?? '/').slice(1) || 'shop.html';
    const file = normalize(join(PAGES, name));
    if (!file.startsWith(PAGES)) return void res.writeHead(403).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body),
      () => res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>'),
    );
  });
  pages.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const pagesPort = (pages.address() as AddressInfo).port;

  const root = mkdtempSync(join(tmpdir(), 'bproxy-agent-daemon-'));
  const token = randomBytes(32).toString('hex');
  const { logger } = createLogger({ level: 'silent', destination: { write: () => {} } });
  const server: DaemonServer = await buildServer({
    port: 0,
    daemonToken: token,
    extensionIds: [DEFAULT_EXTENSION_ID],
    extensionTokens: { get: () => null, set: async () => {} },
    logger,
    tmpRoot: root,
    pacingOverride: 'fast',
    launchers: [
      {
        name: 'headless',
        kind: 'launched',
        async start() {
          const [daemonEnd, driverEnd] = createLinkedTransportPair<DriverMessage, DaemonMessage>();
          const driver = await startCdpDriver(
            {
              mode: 'launch',
              headless: true,
              profilesDir: root,
              executablePath: chromiumPath(),
              name: 'headless',
            },
            driverEnd,
          );
          return { link: daemonEnd, stop: () => driver.close() };
        },
      },
    ],
  });
  const port = await server.listen();
  const client = new DaemonClient({ endpoint: { home: root, port, token }, keepAlive: true });
  const pagesUrl = (page: string): string => `http://127.0.0.1:${pagesPort}/${page}`;
  return {
    client,
    pagesUrl,
    async sharedTab(page) {
      const created = await client.call('session.create', { label: 'shared tab', pacing: 'fast' });
      if (!created.ok) throw new Error(created.error.message);
      const session = String(created.data.session);
      const opened = await client.call('tab.open', { url: pagesUrl(page) }, { session, timeoutMs: 60_000 });
      if (!opened.ok) throw new Error(opened.error.message);
      return session;
    },
    async close() {
      client.close();
      // Bounded whatever the daemon does: its shutdown is given the exit bound to stop its browser, a
      // Chromium still running under the folder then is killed, and the folder is removed with a short
      // bounded retry (Chromium's helpers may still be flushing the profile) — never a throw.
      await closeBrowserWithin(root, () => server.shutdown(2_000));
      await new Promise<void>((resolve) => {
        pages.closeAllConnections();
        pages.close(() => resolve());
      });
    },
  };
}
