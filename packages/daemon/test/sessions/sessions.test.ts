import { describe, expect, it } from 'vitest';
import { SESSION_ID_PATTERN, type TabHandle } from '@bproxy/protocol';
import { SessionRegistry } from '../../src/sessions/sessions';
import { SessionIdentifiers } from '../../src/sessions/session-identifiers';

const make = (r: SessionRegistry) => r.create({ now: 0, tmpDirFor: (id) => `/tmp/${id}` });
const tab = (n: number) => ({ clientKey: 'c', rawTabId: n, url: 'http://x/', title: '', pinned: false });

describe('session state machine', () => {
  it('walks created → bound → paused → bound → created, and closes from any state', () => {
    const r = new SessionRegistry('human');
    const s = make(r);
    expect(r.info(s).state).toBe('created');
    const t = r.addTab(s, tab(1));
    r.bind(s, t.handle);
    expect(r.info(s).state).toBe('bound');
    r.pause(s, 'captcha');
    expect(r.info(s)).toMatchObject({ state: 'paused', paused: true, pauseReason: 'captcha' });
    r.resume(s);
    expect(r.info(s).state).toBe('bound');
    r.pause(s, 'login wall');
    r.unbind(s);
    expect(r.info(s)).toMatchObject({ state: 'created', paused: false, tab: null });
    expect(r.info(s).pauseReason).toBeUndefined();
    r.delete(s);
    expect(r.get(s.id)).toBeUndefined();
  });

  it("numbers tabs per session and tells another session's tab from an unknown one", () => {
    const r = new SessionRegistry('human');
    const a = make(r);
    const b = make(r);
    expect(r.addTab(a, tab(1)).handle).toBe('t1');
    expect(r.addTab(a, tab(2)).handle).toBe('t2');
    expect(r.addTab(b, tab(3)).handle).toBe('t1');
    expect(r.lookupTab(b, 't2' as TabHandle)).toEqual({ ok: false, code: 'TAB_NOT_IN_SESSION' });
    expect(r.lookupTab(b, 't9' as TabHandle)).toEqual({ ok: false, code: 'TAB_HANDLE_NOT_FOUND' });
  });

  it('unbinds a session whose bound tab is removed', () => {
    const r = new SessionRegistry('human');
    const s = make(r);
    const t = r.addTab(s, tab(1));
    r.bind(s, t.handle);
    r.removeTab(t);
    expect(r.info(s).state).toBe('created');
    expect(r.byRaw('c', 1)).toBeUndefined();
  });

  it('never exposes raw tab ids', () => {
    const r = new SessionRegistry('human');
    const s = make(r);
    r.bind(s, r.addTab(s, tab(987654)).handle);
    expect(JSON.stringify(r.info(s))).not.toContain('987654');
    expect(JSON.stringify(r.tabInfo(r.addTab(s, tab(987655)), 'chrome'))).not.toContain('987655');
  });
});

describe('session ids', () => {
  it('are 6 base32 characters and never repeat', () => {
    const ids = new SessionIdentifiers();
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const id = ids.next();
      expect(id).toMatch(SESSION_ID_PATTERN);
      expect(seen.has(id)).toBe(false);
      seen.add(id);
    }
  });
});
