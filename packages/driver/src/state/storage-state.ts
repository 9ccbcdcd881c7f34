/**
 * state.save, state.load and cookies.* written once for both drivers, on DevTools' Network and
 * DOMStorage domains. What differs is said by the driver:
 * - `allCookies`: a browser bproxy launched is the session's own, so state.save takes every cookie it
 *   holds (as Playwright does for a context); elsewhere only the cookies the current page sees;
 * - `keepExisting`: in the user's own Chrome, a cookie (or a localStorage key) the browser already has
 *   is never overwritten — loading and setting add, and the answer names what was kept.
 */
import type { ActionParams, StateCookie, StorageState } from '@bproxy/protocol';
import { fail } from '../failure';
import type { DevtoolsCookie, DevtoolsCookieParam, StateSender } from './state-commands';

/** The page's http(s) URL and origin; cookies and storage belong to a web page. */
export function httpPageOf(url: string): { url: string; origin: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('PAGE_NOT_SCRIPTABLE', `cookies and storage need an http(s) page, not "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    fail('PAGE_NOT_SCRIPTABLE', `cookies and storage need an http(s) page, not a ${parsed.protocol} one`);
  return { url: parsed.href, origin: parsed.origin };
}

export function toStateCookie(c: DevtoolsCookie): StateCookie {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    expires: c.session || c.expires < 0 ? -1 : c.expires,
    httpOnly: c.httpOnly,
    secure: c.secure,
    // Chromium leaves sameSite out when the cookie did not set one; it then behaves as Lax.
    sameSite: c.sameSite ?? 'Lax',
  };
}

export function toCookieParam(c: StateCookie): DevtoolsCookieParam {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    secure: c.secure,
    httpOnly: c.httpOnly,
    sameSite: c.sameSite,
    ...(c.expires > 0 ? { expires: c.expires } : {}),
  };
}

/** A URL the cookie is sent to, to ask the browser which cookies of that place it already has. */
function cookieUrl(c: StateCookie): string {
  const host = c.domain.startsWith('.') ? c.domain.slice(1) : c.domain;
  return `${c.secure ? 'https' : 'http'}://${host}${c.path}`;
}

const sameCookie = (a: { name: string; domain: string; path: string }, b: typeof a): boolean =>
  a.name === b.name && a.domain === b.domain && a.path === b.path;

type Entries = { name: string; value: string }[];

/**
 * How a driver reads and writes an origin's localStorage: DevTools' DOMStorage where the driver has it
 * (any origin), a script in the page where it has not (the extension: the page's own origin only —
 * `write` answers false for another).
 */
export interface LocalStorageAccess {
  read(origin: string): Promise<Entries>;
  /** Sets these entries (never removes any); false when this origin cannot be written here. */
  write(origin: string, entries: Entries): Promise<boolean>;
}

/** localStorage through DevTools' DOMStorage domain, for any origin of the browser. */
export function devtoolsLocalStorage(s: StateSender): LocalStorageAccess {
  return {
    async read(origin) {
      const { entries } = await s.send('DOMStorage.getDOMStorageItems', {
        storageId: { securityOrigin: origin, isLocalStorage: true },
      });
      return entries.flatMap(([name, value]) =>
        name === undefined || value === undefined ? [] : [{ name, value }],
      );
    },
    async write(origin, entries) {
      const storageId = { securityOrigin: origin, isLocalStorage: true };
      for (const e of entries)
        await s.send('DOMStorage.setDOMStorageItem', { storageId, key: e.name, value: e.value });
      return true;
    },
  };
}

export async function saveState(
  s: StateSender,
  storage: LocalStorageAccess,
  pageUrl: string,
  options: { allCookies?: () => Promise<DevtoolsCookie[]> },
): Promise<StorageState> {
  const { url, origin } = httpPageOf(pageUrl);
  const cookies =
    options.allCookies === undefined
      ? (await s.send('Network.getCookies', { urls: [url] })).cookies
      : await options.allCookies();
  const entries = await storage.read(origin);
  return {
    cookies: cookies.map(toStateCookie),
    origins: entries.length > 0 ? [{ origin, localStorage: entries }] : [],
  };
}

export async function loadState(
  s: StateSender,
  storage: LocalStorageAccess,
  state: StorageState,
  options: { keepExisting: boolean },
): Promise<{ cookies: number; origins: number; kept?: string[]; skipped?: string[] }> {
  const kept: string[] = [];
  const skipped: string[] = [];
  let toSet = state.cookies;
  if (options.keepExisting) {
    toSet = [];
    for (const c of state.cookies) {
      const { cookies: there } = await s.send('Network.getCookies', { urls: [cookieUrl(c)] });
      if (there.some((t) => sameCookie(t, c))) kept.push(c.name);
      else toSet.push(c);
    }
  }
  if (toSet.length > 0) await s.send('Network.setCookies', { cookies: toSet.map(toCookieParam) });
  let origins = 0;
  for (const o of state.origins) {
    let entries = o.localStorage;
    if (options.keepExisting) {
      const existing = new Set((await storage.read(o.origin).catch(() => [])).map((e) => e.name));
      entries = entries.filter((e) => {
        if (!existing.has(e.name)) return true;
        kept.push(`localStorage ${o.origin} ${e.name}`);
        return false;
      });
    }
    if (await storage.write(o.origin, entries)) origins += 1;
    else skipped.push(o.origin);
  }
  return {
    cookies: toSet.length,
    origins,
    ...(kept.length > 0 ? { kept } : {}),
    ...(skipped.length > 0 ? { skipped } : {}),
  };
}

async function pageCookies(s: StateSender, url: string): Promise<DevtoolsCookie[]> {
  return (await s.send('Network.getCookies', { urls: [url] })).cookies;
}

export async function listCookies(
  s: StateSender,
  pageUrl: string,
): Promise<{ url: string; cookies: StateCookie[] }> {
  const { url } = httpPageOf(pageUrl);
  return { url, cookies: (await pageCookies(s, url)).map(toStateCookie) };
}

export async function setCookie(
  s: StateSender,
  pageUrl: string,
  params: ActionParams<'cookies.set'>,
  options: { keepExisting: boolean },
): Promise<{ url: string; name: string; set: boolean; reason?: string }> {
  const { url } = httpPageOf(pageUrl);
  const path = params.path ?? '/';
  if (options.keepExisting) {
    const host = new URL(url).hostname;
    const there = (await pageCookies(s, url)).some(
      (c) => c.name === params.name && c.path === path && (c.domain === host || c.domain === `.${host}`),
    );
    if (there)
      return {
        url,
        name: params.name,
        set: false,
        reason: 'this browser already has a cookie of that name here; the user’s cookie is kept',
      };
  }
  // Bound to the page's URL: a host-only cookie of the current origin, never another site's.
  const cookie: DevtoolsCookieParam = {
    name: params.name,
    value: params.value,
    url,
    path,
    ...(params.expires === undefined ? {} : { expires: params.expires }),
    ...(params.httpOnly === undefined ? {} : { httpOnly: params.httpOnly }),
    ...(params.secure === undefined ? {} : { secure: params.secure }),
    ...(params.sameSite === undefined ? {} : { sameSite: params.sameSite }),
  };
  await s.send('Network.setCookies', { cookies: [cookie] });
  return { url, name: params.name, set: true };
}

export async function clearCookies(
  s: StateSender,
  pageUrl: string,
  name: string | undefined,
): Promise<{ url: string; cleared: number }> {
  const { url } = httpPageOf(pageUrl);
  const doomed = (await pageCookies(s, url)).filter((c) => name === undefined || c.name === name);
  for (const c of doomed)
    await s.send('Network.deleteCookies', { name: c.name, domain: c.domain, path: c.path });
  return { url, cleared: doomed.length };
}
