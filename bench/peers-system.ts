/**
 * Machine-side helpers of the peers benchmark: the static server for the corpus pages (with the CSP
 * header every peer sees), and the memory of a server's process trees read from /proc — including a
 * daemon it detached (bproxy's, agent-browser's), found by its command line among the new processes.
 */
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, normalize, sep } from 'node:path';

const CSP = "default-src 'self' 'unsafe-inline' data:";

export interface PageServer {
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves `dirs` (first match wins) on 127.0.0.1 with the benchmark's CSP header; a path under a
 * `mounts` prefix (`/replay/`) is served from that prefix's folder only.
 */
export async function servePages(
  dirs: readonly string[],
  mounts: Readonly<Record<string, string>> = {},
): Promise<PageServer> {
  const server = createServer((req, res) => {
    let path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
    let from = dirs;
    for (const [prefix, dir] of Object.entries(mounts))
      if (path.startsWith(prefix)) {
        path = `/${path.slice(prefix.length)}`;
        from = [dir];
      }
    for (const dir of from) {
      const file = normalize(join(dir, path));
      if (!file.startsWith(dir + sep) || !existsSync(file) || !file.endsWith('.html')) continue;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain', 'content-security-policy': CSP }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the page server has no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function livePids(): Set<number> {
  return new Set(
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number),
  );
}

function readProc(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

export interface Memory {
  /** The MCP server and any daemon of its own (MiB). */
  serverMb: number;
  /** Every browser process (MiB). */
  browserMb: number;
  processes: number;
}

function parentOf(pid: number): number | null {
  // The command name may hold spaces or parentheses: the fields after the last ")" are fixed.
  const stat = readProc(pid, 'stat');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : null;
}

/** New processes (absent from `baseline`) whose command line matches `pattern`: detached daemons. */
export function newProcesses(baseline: ReadonlySet<number>, pattern: RegExp): number[] {
  return [...livePids()].filter(
    (pid) => !baseline.has(pid) && pattern.test(readProc(pid, 'cmdline').replace(/\0/g, ' ')),
  );
}

/** A Chromium process, by its executable (a server's own name may contain "chrome"). */
function isBrowser(pid: number): boolean {
  try {
    return /chrom(e|ium)$|headless_shell$/.test(readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return false;
  }
}

/** RSS of the process trees under `roots`, split into browser processes and the rest. */
export function memoryOf(roots: readonly number[]): Memory {
  const children = new Map<number, number[]>();
  for (const pid of livePids()) {
    const parent = parentOf(pid);
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const seen = new Set<number>();
  const queue = [...roots];
  let server = 0;
  let browser = 0;
  while (queue.length > 0) {
    const pid = queue.pop();
    if (pid === undefined || seen.has(pid)) continue;
    seen.add(pid);
    queue.push(...(children.get(pid) ?? []));
    const rss = Number(readProc(pid, 'status').match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? 0);
    if (isBrowser(pid)) browser += rss;
    else server += rss;
  }
  return { serverMb: server / 1024, browserMb: browser / 1024, processes: seen.size };
}
