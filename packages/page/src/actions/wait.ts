/**
 * `wait`: until text appears or goes, or an element reaches a state (visible, hidden, attached,
 * detached) — the conditions the page answers (WAIT_CONDITIONS); the driver answers the others.
 * Re-checks on DOM mutations (coalesced to one check per task) and on a slow poll for changes no
 * mutation reports (animations, layout); background tabs throttle timers, so no rAF is relied on.
 */
import type { ActionResult } from '@bproxy/protocol';
import type { PageContext } from '../context';
import { FrameReport } from '../dom/flat-tree';
import { querySelectorDeep, resolveTarget } from '../dom/resolve';
import { isVisible } from '../dom/visibility';
import { PageError } from '../errors';
import { optBoolean, optNumber, optString, optTarget, type Params } from '../params';
import { visibleText } from '../render/visible-text';

const DEFAULT_TIMEOUT_MS = 5000;
const POLL_MS = 100;
type State = 'visible' | 'hidden' | 'attached' | 'detached';

/** Whether the page's visible text holds `text` (whitespace and case aside). */
function showsText(text: string): () => boolean {
  const needle = text.replace(/\s+/g, ' ').trim().toLowerCase();
  return () =>
    visibleText(document.body ?? document.documentElement, new FrameReport())
      .replace(/\s+/g, ' ')
      .toLowerCase()
      .includes(needle);
}

function condition(ctx: PageContext, p: Params): { check: () => boolean; what: string } {
  const text = optString(p, 'text');
  if (text !== undefined) return { check: showsText(text), what: `text ${JSON.stringify(text)} to appear` };
  const gone = optString(p, 'textGone');
  if (gone !== undefined) {
    const shows = showsText(gone);
    return { check: () => !shows(), what: `text ${JSON.stringify(gone)} to go` };
  }
  const state = (optString(p, 'state') ?? 'visible') as State;
  if (!['visible', 'hidden', 'attached', 'detached'].includes(state))
    throw new PageError('BAD_REQUEST', `params.state: unknown state "${state}"`);
  const selector = optString(p, 'selector');
  const target = optTarget(p);
  if (selector === undefined && target === undefined)
    throw new PageError('BAD_REQUEST', 'give exactly one of text, textGone, selector or target');
  const find = (): Element | null => {
    if (selector !== undefined) return querySelectorDeep(selector);
    if (target === undefined) return null;
    try {
      return resolveTarget(target, ctx.registry);
    } catch (error) {
      if (
        error instanceof PageError &&
        (error.code === 'ELEMENT_NOT_FOUND' || error.code === 'ELEMENT_HANDLE_STALE')
      )
        return null;
      throw error;
    }
  };
  const check = (): boolean => {
    const el = find();
    switch (state) {
      case 'attached':
        return el !== null;
      case 'detached':
        return el === null;
      case 'visible':
        return el !== null && isVisible(el);
      case 'hidden':
        return el === null || !isVisible(el);
    }
  };
  return { check, what: `${selector ?? 'the target'} to be ${state}` };
}

export function wait(ctx: PageContext, p: Params): Promise<ActionResult<'wait'>> {
  if (optBoolean(p, 'navigation') === true) {
    return Promise.reject(
      new PageError(
        'UNSUPPORTED_ACTION',
        'waiting for a navigation is done by the driver, not the page script',
      ),
    );
  }
  const timeoutMs = optNumber(p, 'timeoutMs') ?? DEFAULT_TIMEOUT_MS;
  const { check, what } = condition(ctx, p);
  const started = performance.now();
  const done = (): ActionResult<'wait'> => ({
    url: location.href,
    title: document.title,
    waitedMs: Math.round(performance.now() - started),
  });
  if (check()) return Promise.resolve(done());
  return new Promise((resolve, reject) => {
    let scheduled = false;
    const finish = (outcome: () => void): void => {
      observer.disconnect();
      clearInterval(poll);
      clearTimeout(deadline);
      outcome();
    };
    const recheck = (): void => {
      scheduled = false;
      try {
        if (check()) finish(() => resolve(done()));
      } catch (error) {
        finish(() => reject(error));
      }
    };
    const observer = new MutationObserver(() => {
      if (scheduled) return;
      scheduled = true;
      setTimeout(recheck, 0);
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const poll = setInterval(recheck, POLL_MS);
    const deadline = setTimeout(() => {
      finish(() => reject(new PageError('WAIT_TIMEOUT', `waited ${timeoutMs} ms for ${what}`)));
    }, timeoutMs);
  });
}
