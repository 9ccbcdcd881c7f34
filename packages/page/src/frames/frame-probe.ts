/**
 * Which frame element holds a frame the driver knows by its own id, for a driver that cannot ask the
 * browser (the extension: chrome.scripting names frames by number, the page knows elements). The
 * driver has each child frame post a random token to its parent; the parent's page script, listening
 * from the start, finds the frame element whose window sent it. Only trusted message events count (a
 * page's script cannot forge the sender with a MessageEvent of its own), the first sender of a token
 * wins, and at most 64 tokens are kept.
 */
import type { PageContext } from '../context';
import { deepElements, isFrame } from '../dom/flat-tree';
import { PageError } from '../errors';
import { optNumber, type Params } from '../params';

const KEY = '__bproxyFrameProbe';
const KEPT = 64;
const senders = new Map<string, MessageEventSource>();
const waiting = new Set<() => void>();

/** Starts listening for the tokens child frames post; called once when the page script installs. */
export function listenForFrames(): void {
  addEventListener(
    'message',
    (event: MessageEvent) => {
      if (!event.isTrusted || event.source === null) return;
      const data: unknown = event.data;
      if (typeof data !== 'object' || data === null) return;
      const token = (data as Record<string, unknown>)[KEY];
      if (typeof token !== 'string' || token.length > 64 || senders.has(token)) return;
      senders.set(token, event.source);
      if (senders.size > KEPT) {
        const oldest = senders.keys().next();
        if (!oldest.done) senders.delete(oldest.value);
      }
      for (const wake of [...waiting]) wake();
    },
    true,
  );
}

/**
 * `frameProbe { tokens, timeoutMs }`: for each token, the ref of the frame element whose window posted
 * it, or null when none did within the time (at most 2 s).
 */
export async function frameProbe(ctx: PageContext, p: Params): Promise<Record<string, string | null>> {
  const tokens = p.tokens;
  if (!Array.isArray(tokens) || tokens.length > 32 || !tokens.every((t) => typeof t === 'string'))
    throw new PageError('BAD_REQUEST', 'params.tokens: expected up to 32 strings');
  const timeoutMs = Math.min(optNumber(p, 'timeoutMs') ?? 1000, 2000);
  const all = (): boolean => tokens.every((t) => senders.has(t));
  if (!all()) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const wake = (): void => {
        if (all()) done();
      };
      const timer = setTimeout(done, timeoutMs);
      waiting.add(wake);
    });
  }
  const frames = [...deepElements(document)].filter(isFrame);
  const answer: Record<string, string | null> = {};
  for (const token of tokens) {
    const source = senders.get(token);
    const frame = source === undefined ? undefined : frames.find((f) => f.contentWindow === source);
    answer[token] = frame === undefined ? null : ctx.registry.refFor(frame);
  }
  return answer;
}
