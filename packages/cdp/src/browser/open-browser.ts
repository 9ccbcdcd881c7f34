/**
 * One entry point for the three modes: launch our own browser, attach to a local one, or connect to
 * a remote endpoint. The handle says whether the browser is ours to close.
 */
import { CdpConnection } from '../cdp/connection';
import { connectWebSocket, redact } from '../cdp/ws-transport';
import type { CdpDriverOptions } from '../options';
import { resolveBrowserWsUrl } from './endpoint';
import { findChrome } from './find-chrome';
import { launchChrome } from './launch';

export interface BrowserHandle {
  connection: CdpConnection;
  /** True when we started the browser: stopping the driver closes it. */
  owned: boolean;
  userAgent: string;
  /** A description for logs (no secrets). */
  endpoint: string;
  pid?: number;
  /** Owned: close the browser. Not owned: only drop our connection. */
  close(): Promise<void>;
}

export async function openBrowser(options: CdpDriverOptions): Promise<BrowserHandle> {
  const timeoutMs = options.connectTimeoutMs ?? 20_000;
  if (options.mode === 'launch') {
    const executablePath = options.executablePath ?? findChrome();
    if (executablePath === undefined) {
      throw new Error(
        'no Chrome, Chromium or Edge found: install one or set CHROME_PATH (or executablePath)',
      );
    }
    const launched = await launchChrome({
      executablePath,
      headless: options.headless ?? true,
      timeoutMs,
      ...(options.profilesDir === undefined ? {} : { profilesDir: options.profilesDir }),
      ...(options.userDataDir === undefined ? {} : { userDataDir: options.userDataDir }),
      ...(options.args === undefined ? {} : { args: options.args }),
    });
    return {
      connection: launched.connection,
      owned: true,
      userAgent: launched.userAgent,
      endpoint: `pipe to ${executablePath} (pid ${launched.pid ?? '?'})`,
      ...(launched.pid === undefined ? {} : { pid: launched.pid }),
      // Bounded and never rejects (launch.ts); what it left behind is not the caller's to act on.
      close: async () => {
        await launched.close();
      },
    };
  }
  const input =
    options.mode === 'remote'
      ? { wsUrl: requireWsUrl(options) }
      : {
          ...(options.wsUrl === undefined ? {} : { wsUrl: options.wsUrl }),
          ...(options.port === undefined ? {} : { port: options.port }),
          ...(options.userDataDir === undefined ? {} : { userDataDir: options.userDataDir }),
        };
  const wsUrl = await resolveBrowserWsUrl(input, timeoutMs);
  const connection = new CdpConnection(await connectWebSocket(wsUrl, timeoutMs));
  let userAgent: string;
  try {
    userAgent = (await connection.send('Browser.getVersion', {}, { timeoutMs })).userAgent;
  } catch (error) {
    connection.close();
    throw error;
  }
  return {
    connection,
    owned: false,
    userAgent,
    endpoint: redact(wsUrl),
    async close() {
      connection.close();
    },
  };
}

function requireWsUrl(options: CdpDriverOptions): string {
  if (options.wsUrl === undefined)
    throw new Error('remote mode needs wsUrl (a ws:// DevTools URL or an http:// endpoint)');
  return options.wsUrl;
}
