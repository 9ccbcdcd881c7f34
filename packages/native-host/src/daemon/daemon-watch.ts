/**
 * Watches BPROXY_HOME so the extension hears at once when the daemon starts, stops or moves to
 * another port — say an agent ran `bproxy mcp`, which starts one. The port file is written last at
 * start and removed at stop, by rename (atomic replace), so the folder is watched, not the file. A
 * poll backs the watch up: it notices a daemon that died without removing its files (SIGKILL), a
 * BPROXY_HOME created after the host started, and platforms where folder watches are unreliable.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { DaemonState } from './daemon-access';

/** The state files that decide whether a daemon runs, and where. */
const WATCHED_FILES = new Set(['port', 'bproxy.pid']);

export interface DaemonWatchOptions {
  readonly home: string;
  /** Reads the state now (DaemonAccess.current); a throw counts as "not running". */
  readonly read: () => DaemonState;
  /** Called with each new state, never twice in a row with the same one. */
  readonly onChange: (state: DaemonState) => void;
  /** The backup poll (default 2 s). */
  readonly pollMs?: number;
}

export interface DaemonWatch {
  close(): void;
}

export function watchDaemon(options: DaemonWatchOptions): DaemonWatch {
  const read = (): DaemonState => {
    try {
      return options.read();
    } catch {
      return { running: false, port: null };
    }
  };
  let last = read();
  let watcher: FSWatcher | null = null;
  let closed = false;

  const check = () => {
    if (closed) return;
    const now = read();
    if (now.running === last.running && now.port === last.port) return;
    last = now;
    options.onChange(now);
  };

  const arm = () => {
    if (watcher !== null || closed) return;
    try {
      watcher = watch(options.home, { persistent: false }, (_event, file) => {
        if (file === null || WATCHED_FILES.has(file.toString())) check();
      });
      // The folder went away (or the platform gave up on it): the poll re-arms when it is back.
      watcher.on('error', () => {
        watcher?.close();
        watcher = null;
      });
    } catch {
      watcher = null;
    }
  };

  arm();
  const poll = setInterval(() => {
    arm();
    check();
  }, options.pollMs ?? 2_000);
  poll.unref();

  return {
    close() {
      closed = true;
      clearInterval(poll);
      watcher?.close();
      watcher = null;
    },
  };
}
