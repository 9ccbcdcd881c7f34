/**
 * Turning what the user gave (a port, a user-data-dir, a ws or http URL) into a DevTools ws URL.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface EndpointInput {
  port?: number;
  userDataDir?: string;
  wsUrl?: string;
}

/** Chrome writes the port it bound and the browser target path here when --remote-debugging-port is on. */
export async function readDevToolsActivePort(userDataDir: string): Promise<{ port: number; path: string }> {
  const file = join(userDataDir, 'DevToolsActivePort');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new Error(
      `no ${file}: start the browser with --remote-debugging-port=0 and --user-data-dir=${userDataDir}`,
    );
  }
  const active = parseDevToolsActivePort(text);
  if (active === undefined) throw new Error(`${file} does not hold a port and a /devtools/browser/ path`);
  return active;
}

/** The file's two lines: the port, then the browser target's path; undefined when it holds anything else. */
export function parseDevToolsActivePort(text: string): { port: number; path: string } | undefined {
  const [portLine, pathLine] = text.split(/\r?\n/);
  const port = Number(portLine);
  if (
    !Number.isInteger(port) ||
    port <= 0 ||
    port > 65535 ||
    pathLine === undefined ||
    !pathLine.startsWith('/devtools/browser/')
  ) {
    return undefined;
  }
  return { port, path: pathLine };
}

/** Asks a DevTools HTTP endpoint for its browser WebSocket URL. */
export async function fetchBrowserWsUrl(httpBase: string, timeoutMs: number): Promise<string> {
  const url = new URL('/json/version', httpBase);
  url.search = new URL(httpBase).search;
  let body: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    throw new Error(
      `no DevTools endpoint at ${url.origin}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const ws = (body as { webSocketDebuggerUrl?: unknown } | null)?.webSocketDebuggerUrl;
  if (typeof ws !== 'string') throw new Error(`${url.origin}/json/version has no webSocketDebuggerUrl`);
  return ws;
}

/** ws:// and wss:// are used as given; http(s):// is asked for its ws URL; a port or a profile dir mean this machine. */
export async function resolveBrowserWsUrl(input: EndpointInput, timeoutMs: number): Promise<string> {
  if (input.wsUrl !== undefined) {
    const protocol = new URL(input.wsUrl).protocol;
    if (protocol === 'ws:' || protocol === 'wss:') return input.wsUrl;
    if (protocol === 'http:' || protocol === 'https:') return fetchBrowserWsUrl(input.wsUrl, timeoutMs);
    throw new Error(`wsUrl: expected ws://, wss://, http:// or https://, got ${protocol}`);
  }
  if (input.port !== undefined) return fetchBrowserWsUrl(`http://127.0.0.1:${input.port}`, timeoutMs);
  if (input.userDataDir !== undefined) {
    const active = await readDevToolsActivePort(input.userDataDir);
    return `ws://127.0.0.1:${active.port}${active.path}`;
  }
  throw new Error('attach needs a port, a userDataDir or a wsUrl');
}
