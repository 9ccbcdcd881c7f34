/**
 * Downloads on the daemon's side. A driver puts each download of a browser bproxy launched in the
 * daemon's staging folder (BPROXY_HOME/downloads-staging, 0700) under the browser's id for it, and
 * reports it (a `download` message) as it starts and ends. The daemon:
 * - attributes it to the session holding the tab that started it (none: the staged file is removed);
 * - reserves its name at once in the session's downloads folder (BPROXY_HOME/tmp/<session>/downloads):
 *   the page's suggested name without path separators, control characters or leading dots (never `..`),
 *   created O_EXCL|O_NOFOLLOW, 0600 — a name taken already gets ` (2)`, ` (3)`… so nothing is overwritten;
 * - on completion copies the staged bytes into it (the staged file opened O_NOFOLLOW, a regular file,
 *   within the cap) and removes the staged one; a download stopped over the cap or of a refused type,
 *   or cancelled, leaves nothing: its reserved and staged files are removed;
 * - names it in the session's next acting answer (`downloads`), lists it (`downloads`), and wakes
 *   `wait --download`.
 * The user's own Chrome (the extension) stages nothing here: Chrome writes a session tab's download
 * under the user's Downloads folder as `bproxy-downloads/<guid>/<name>` and the extension reports that
 * path; the daemon takes the bytes only from a path of exactly that shape (no `..`, real folders, the
 * file opened without following a link) and removes the file and its folder once filed or stopped.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import {
  downloadFileName,
  EXTENSION_DOWNLOAD_FOLDER,
  type Download,
  type DownloadState,
  type DriverDownloadMessage,
  type TabHandle,
} from '@bproxy/protocol';
import type { ClientRecord } from '../browsers/clients';
import type { DownloadGate } from '../approvals/download-gate';
import type { SessionRegistry, SessionRecord, TabRecord } from '../sessions/sessions';

/** The staging folder drivers of launched browsers write downloads into, under BPROXY_HOME. */
export function downloadStaging(home: string): string {
  return join(home, 'downloads-staging');
}

/** Creates the staging folder (0700), refusing one that is a link or not a directory. */
export function ensureDownloadStaging(home: string): string {
  const dir = downloadStaging(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory`);
  return dir;
}

/**
 * Where the extension says Chrome put download `guid`, if that is `…/bproxy-downloads/<guid>/<name>` with
 * both folders real directories (not links); null for anything else, which the daemon never touches.
 */
export function extensionStagedPath(path: string | undefined, guid: string): string | null {
  if (path === undefined || !isAbsolute(path) || normalize(path) !== path) return null;
  const dir = dirname(path);
  const name = basename(path);
  if (name === '' || name === '.' || name === '..') return null;
  if (basename(dir) !== guid || basename(dirname(dir)) !== EXTENSION_DOWNLOAD_FOLDER) return null;
  try {
    if (!lstatSync(dir).isDirectory() || !lstatSync(dirname(dir)).isDirectory()) return null;
  } catch {
    return null;
  }
  return path;
}

export interface DownloadEntry {
  readonly guid: string;
  readonly tab: TabHandle;
  readonly url: string;
  /** Its path in the session's downloads folder (reserved when it started). */
  readonly file: string;
  bytes: number;
  state: DownloadState;
  code?: NonNullable<Download['code']>;
  /** Why the approvals gate did not let it be kept (its message and details), when it did not. */
  refusal?: { message: string; details: Record<string, unknown> };
  /** Named in an answer already (an acting action's or a wait's). */
  reported: boolean;
  /** Answered a `wait --download` already. */
  awaited: boolean;
  /** Its name was reserved (an empty 0600 file the daemon made); a refused type never gets one. */
  readonly reserved: boolean;
}

interface SessionDownloads {
  readonly entries: DownloadEntry[];
  readonly waiters: Set<(entry: DownloadEntry) => void>;
}

/** At most this many downloads are listed per session (the oldest go first). */
const MAX_LISTED = 200;

export function downloadView(entry: DownloadEntry): Download {
  return {
    file: entry.file,
    bytes: entry.bytes,
    url: entry.url,
    state: entry.state,
    ...(entry.code === undefined ? {} : { code: entry.code }),
  };
}

/** Creates `name` in `folder`, or `name (2)`… when taken: never an existing file, never through a link. */
function reserve(folder: string, name: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 1; n < 1000; n++) {
    const path = join(folder, n === 1 ? name : `${stem} (${n})${ext}`);
    try {
      const fd = openSync(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      closeSync(fd);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`no free name for ${name}`);
}

/** Copies the staged file into the reserved one: both opened without following links, at most maxBytes. */
export function fileStaged(staged: string, dest: string, maxBytes: number): number {
  const src = openSync(staged, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stat = fstatSync(src);
    if (!stat.isFile()) throw new Error('the staged download is not a regular file');
    if (stat.size > maxBytes) throw new Error('the staged download is over the cap');
    const out = openSync(dest, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW);
    try {
      if (!fstatSync(out).isFile()) throw new Error('the download is not a regular file');
      const buffer = Buffer.alloc(1024 * 1024);
      let total = 0;
      for (;;) {
        const read = readSync(src, buffer, 0, buffer.length, null);
        if (read === 0) break;
        total += read;
        if (total > maxBytes) throw new Error('the staged download is over the cap');
        let written = 0;
        while (written < read) written += writeSync(out, buffer, written, read - written);
      }
      return total;
    } finally {
      closeSync(out);
    }
  } finally {
    closeSync(src);
  }
}

export interface DownloadDeps {
  readonly sessions: SessionRegistry;
  readonly tmpRoot: string;
  readonly downloadMaxBytes: number;
}

export class Downloads {
  private readonly bySession = new WeakMap<SessionRecord, SessionDownloads>();
  private readonly live = new Map<string, { session: SessionRecord; entry: DownloadEntry }>();

  /** The "download" approval class (approvals/download-gate.ts), asked as a download starts. */
  gate: DownloadGate | undefined;

  constructor(private readonly deps: DownloadDeps) {}

  /** The cap (BPROXY_DOWNLOAD_MAX_BYTES), told to extensions in their welcome. */
  get maxBytes(): number {
    return this.deps.downloadMaxBytes;
  }

  private get staging(): string {
    return downloadStaging(dirname(this.deps.tmpRoot));
  }

  private of(session: SessionRecord): SessionDownloads {
    let found = this.bySession.get(session);
    if (found === undefined) {
      found = { entries: [], waiters: new Set() };
      this.bySession.set(session, found);
    }
    return found;
  }

  /** The session's downloads, oldest first. */
  list(session: SessionRecord): DownloadEntry[] {
    return [...this.of(session).entries];
  }

  /** The downloads of `tab` not named in an answer yet; they are marked named. */
  takeUnreported(session: SessionRecord, tab: TabHandle): Download[] {
    const fresh = this.of(session).entries.filter((e) => !e.reported && e.tab === tab);
    for (const entry of fresh) entry.reported = true;
    return fresh.map(downloadView);
  }

  /**
   * The session's oldest download that ended and no wait answered yet, else the next one to end
   * (completed, cancelled or refused); `cancel` drops the wait. Each download answers one wait.
   */
  awaitEnded(session: SessionRecord): { promise: Promise<DownloadEntry>; cancel(): void } {
    const { entries, waiters } = this.of(session);
    const ended = entries.find((e) => e.state !== 'in_progress' && !e.awaited);
    if (ended !== undefined) {
      ended.awaited = true;
      return { promise: Promise.resolve(ended), cancel: () => undefined };
    }
    let waiter: ((entry: DownloadEntry) => void) | undefined;
    const promise = new Promise<DownloadEntry>((resolve) => {
      const w = (entry: DownloadEntry): void => {
        if (entry.awaited) return;
        entry.awaited = true;
        waiters.delete(w);
        resolve(entry);
      };
      waiter = w;
      waiters.add(w);
    });
    return {
      promise,
      cancel: () => {
        if (waiter !== undefined) waiters.delete(waiter);
      },
    };
  }

  /** Where the download's bytes are: the staging folder (a launched browser) or the extension's path. */
  private stagedOf(client: ClientRecord, msg: DriverDownloadMessage): string | null {
    if (client.kind === 'extension') return extensionStagedPath(msg.path, msg.guid);
    return join(this.staging, msg.guid);
  }

  private removeStaged(client: ClientRecord, msg: DriverDownloadMessage): void {
    if (client.kind === 'extension') {
      const path = extensionStagedPath(msg.path, msg.guid);
      if (path === null) return;
      rmSync(path, { force: true });
      rmSync(`${path}.crdownload`, { force: true });
      try {
        rmdirSync(dirname(path));
      } catch {
        // Not empty (Chrome still writes there) or gone already: left as it is.
      }
      return;
    }
    for (const name of [msg.guid, `${msg.guid}.crdownload`])
      rmSync(join(this.staging, name), { force: true });
  }

  /** A driver's report of a download in one of its tabs. */
  onReport(client: ClientRecord, msg: DriverDownloadMessage): void {
    const known = this.live.get(msg.guid);
    if (msg.state === 'started' || known === undefined) {
      const tab = this.deps.sessions.byRaw(client.key, msg.tabId);
      const session = tab === undefined ? undefined : this.deps.sessions.get(tab.session);
      if (tab === undefined || session === undefined) {
        // No session holds the tab: nothing of it is kept in bproxy's folders.
        if (msg.state !== 'started') this.removeStaged(client, msg);
        return;
      }
      if (known === undefined) this.begin(client, session, tab, msg);
    }
    if (msg.state !== 'started') this.end(client, msg);
  }

  private begin(
    client: ClientRecord,
    session: SessionRecord,
    tab: TabRecord,
    msg: DriverDownloadMessage,
  ): void {
    const folder = join(session.tmpDir, 'downloads');
    const name = downloadFileName(msg.name);
    let file = join(folder, name);
    const gated = msg.state === 'type_refused' ? null : (this.gate?.(session, tab, client, msg.url) ?? null);
    const refused = msg.state === 'type_refused' || gated !== null;
    if (!refused) {
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        if (!lstatSync(folder).isDirectory()) throw new Error('not a directory');
        file = reserve(folder, name);
      } catch {
        this.removeStaged(client, msg);
        return;
      }
    }
    const entry: DownloadEntry = {
      guid: msg.guid,
      tab: tab.handle,
      url: msg.url,
      file,
      bytes: 0,
      state: 'in_progress',
      reported: false,
      awaited: false,
      reserved: !refused,
      ...(gated === null
        ? {}
        : { code: gated.code, refusal: { message: gated.message, details: gated.details } }),
    };
    const record = this.of(session);
    record.entries.push(entry);
    if (record.entries.length > MAX_LISTED) record.entries.shift();
    this.live.set(msg.guid, { session, entry });
  }

  private end(client: ClientRecord, msg: DriverDownloadMessage): void {
    const found = this.live.get(msg.guid);
    if (found === undefined) return;
    this.live.delete(msg.guid);
    const { session, entry } = found;
    const staged = this.stagedOf(client, msg);
    const sessionAlive = this.deps.sessions.get(session.id) === session;
    entry.bytes = msg.bytes;
    if (entry.refusal !== undefined) {
      // Not allowed by the approvals gate: however it ended, nothing of it is kept.
      entry.state = 'refused';
    } else if (msg.state === 'completed' && sessionAlive && staged !== null) {
      try {
        entry.bytes = fileStaged(staged, entry.file, this.deps.downloadMaxBytes);
        entry.state = 'completed';
      } catch {
        entry.state = 'canceled';
      }
    } else if (msg.state === 'too_large') {
      entry.state = 'refused';
      entry.code = 'DOWNLOAD_TOO_LARGE';
    } else if (msg.state === 'type_refused') {
      entry.state = 'refused';
      entry.code = 'DOWNLOAD_TYPE_REFUSED';
      entry.bytes = 0;
    } else {
      entry.state = 'canceled';
    }
    this.removeStaged(client, msg);
    if (entry.state !== 'completed' && entry.reserved) rmSync(entry.file, { force: true });
    for (const waiter of [...this.of(session).waiters]) waiter(entry);
  }
}
