/**
 * What `wait` waits for, said once: the conditions it takes (exactly one per call), which side of a
 * driver answers each, and how a URL pattern matches. Zod-free, so the page bundle and both drivers
 * read it. A new condition is a line in WAIT_CONDITIONS, a field of the wait schemas (schemas/wait.ts)
 * and its handling where this table says.
 */

/**
 * Each condition and who answers it: `page` — the page script, which re-checks on DOM changes; `driver`
 * — the browser driver, from what the browser reports (navigations, loads), since the page script dies
 * with its document; `daemon` — the daemon itself, from what drivers reported (downloads).
 */
export const WAIT_CONDITIONS = {
  text: 'page',
  textGone: 'page',
  selector: 'page',
  target: 'page',
  navigation: 'driver',
  url: 'driver',
  load: 'driver',
  consoleError: 'driver',
  networkIdle: 'driver',
  download: 'daemon',
} as const;

/** `networkIdle`: how long no request of the tab may be in flight for its network to count as idle. */
export const NETWORK_IDLE_MS = 500;

export type WaitCondition = keyof typeof WAIT_CONDITIONS;

/** The condition keys a params object names (a boolean condition counts when true). */
export function waitConditionsOf(params: Readonly<Record<string, unknown>>): WaitCondition[] {
  return (Object.keys(WAIT_CONDITIONS) as WaitCondition[]).filter((key) => {
    const value = params[key];
    return value !== undefined && value !== false;
  });
}

/**
 * Whether `url` matches a `wait --url` pattern: with `*` (any run of characters) the whole URL must
 * match it; without, the URL must contain it.
 */
export function urlMatches(url: string, pattern: string): boolean {
  if (!pattern.includes('*')) return url.includes(pattern);
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(url);
}
