import { describe, expect, it } from 'vitest';
import type { SessionId, TabHandle, ElementHandle } from '@bproxy/protocol';
import {
  ElementHandles,
  HANDLE_GLOBAL_CAP,
  HANDLE_SCOPE_CAP,
  HANDLE_SCOPE_KEEP,
  HANDLE_TTL_MS,
} from '../../src/sessions/element-handles';

const noop = { mint: () => undefined, resolve: () => undefined, invalidate: () => undefined };
const S = 'aaaaaa' as SessionId;
const T1 = 't1' as TabHandle;
const T2 = 't2' as TabHandle;
const h = (s: string) => s as ElementHandle;
const targets = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ ref: `r${i + 1}`, selector: `#e${i}` }));

function setup() {
  let now = 0;
  const handles = new ElementHandles(() => now, noop);
  handles.observePage('c#1', 'http://a/');
  handles.observePage('c#2', 'http://b/');
  return { handles, advance: (ms: number) => (now += ms) };
}

describe('ElementHandles', () => {
  it('mints el/ln handles numbered per session and resolves them to their targets', () => {
    const { handles } = setup();
    expect(handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(2))).toEqual([
      'el1',
      'el2',
    ]);
    expect(handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'links', 'ln', targets(1))).toEqual(['ln1']);
    expect(handles.resolve(S, T1, h('el2'))).toEqual({ ok: true, target: { ref: 'r2', selector: '#e1' } });
  });

  it('keeps the handle of a node a fresh read of the same page shows again, and numbers new nodes on', () => {
    const { handles } = setup();
    const scope = { session: S, tab: T1, pageKey: 'c#1' };
    expect(handles.mint(scope, 'elements', 'el', targets(2))).toEqual(['el1', 'el2']);
    // The same refs (the same nodes) come back in another order, with one new node.
    const again = [
      { ref: 'r2', selector: '#moved' },
      { ref: 'r9', selector: '#new' },
      { ref: 'r1', selector: '#e0' },
    ];
    expect(handles.mint(scope, 'snapshot', 'el', again)).toEqual(['el2', 'el3', 'el1']);
    expect(handles.resolve(S, T1, h('el2'))).toEqual({ ok: true, target: { ref: 'r2', selector: '#moved' } });
    // A node the newest read does not show keeps its handle: the page decides whether it is still there.
    expect(handles.mint(scope, 'elements', 'el', [{ ref: 'r9', selector: '#new' }])).toEqual(['el3']);
    expect(handles.resolve(S, T1, h('el1'))).toEqual({ ok: true, target: { ref: 'r1', selector: '#e0' } });
  });

  it('renews the TTL of a handle a read shows again, and drops the oldest past 400 in a scope', () => {
    const { handles, advance } = setup();
    const scope = { session: S, tab: T1, pageKey: 'c#1' };
    handles.mint(scope, 'elements', 'el', targets(2));
    advance(HANDLE_TTL_MS - 1000);
    handles.mint(scope, 'elements', 'el', targets(1));
    advance(2000);
    expect(handles.resolve(S, T1, h('el1')).ok).toBe(true);
    expect(handles.resolve(S, T1, h('el2'))).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND' });
    const page = (from: number) =>
      Array.from({ length: 200 }, (_, i) => ({ ref: `r${from + i}`, selector: `#x${from + i}` }));
    handles.mint(scope, 'elements', 'el', page(100));
    handles.mint(scope, 'elements', 'el', page(300));
    handles.mint(scope, 'elements', 'el', page(500));
    expect(handles.size).toBe(HANDLE_SCOPE_KEEP);
    // el1 (r1) was the oldest: dropped; the first of the last read is live.
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND' });
    expect(handles.resolve(S, T1, h('el403'))).toEqual({
      ok: true,
      target: { ref: 'r500', selector: '#x500' },
    });
  });

  it('starts a scope over on another page: the same ref there is not the same node', () => {
    const { handles } = setup();
    const scope = { session: S, tab: T1, pageKey: 'c#1' };
    handles.mint(scope, 'elements', 'el', targets(1));
    handles.onNavigation('c#1', 'http://a/');
    expect(handles.mint(scope, 'elements', 'el', targets(1))).toEqual(['el2']);
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND' });
  });

  it('goes stale on navigation, and after the driver disconnected', () => {
    const { handles } = setup();
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(1));
    handles.onNavigation('c#1', 'http://a/next');
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_STALE' });
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(1));
    handles.forgetPages('c');
    expect(handles.resolve(S, T1, h('el2'))).toMatchObject({ code: 'ELEMENT_HANDLE_STALE' });
  });

  it('keeps a handle minted before a disconnect stale when the same URL is seen again', () => {
    const { handles } = setup();
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(1));
    handles.forgetPages('c');
    handles.onNavigation('c#1', 'http://a/');
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_STALE' });
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'links', 'ln', targets(1));
    handles.forgetPages('c');
    handles.observePage('c#1', 'http://a/');
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_STALE' });
    expect(handles.resolve(S, T1, h('ln1'))).toMatchObject({ code: 'ELEMENT_HANDLE_STALE' });
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'links', 'ln', targets(1));
    expect(handles.resolve(S, T1, h('ln2')).ok).toBe(true);
  });

  it('refuses a handle of another tab of the same session, and of another session', () => {
    const { handles } = setup();
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(1));
    expect(handles.resolve(S, T2, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_SCOPE_MISMATCH' });
    expect(handles.resolve('bbbbbb' as SessionId, T1, h('el1'))).toMatchObject({
      code: 'ELEMENT_HANDLE_NOT_FOUND',
    });
  });

  it('expires handles after 120 s', () => {
    const { handles, advance } = setup();
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(1));
    advance(HANDLE_TTL_MS);
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND' });
  });

  it('caps a batch at 200 and evicts the oldest batches past 1000 in all', () => {
    const { handles } = setup();
    expect(
      handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(500)),
    ).toHaveLength(HANDLE_SCOPE_CAP);
    for (let i = 0; i < 6; i++) {
      const session = `s${'abcdef'[i]}aaaa` as SessionId;
      handles.mint({ session, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(200));
    }
    expect(handles.size).toBeLessThanOrEqual(HANDLE_GLOBAL_CAP);
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND' });
  });

  it('invalidates on tab close and session close', () => {
    const { handles } = setup();
    handles.mint({ session: S, tab: T1, pageKey: 'c#1' }, 'elements', 'el', targets(1));
    handles.mint({ session: S, tab: T2, pageKey: 'c#2' }, 'elements', 'el', targets(1));
    handles.invalidateTab(S, T1, 'tab_closed');
    expect(handles.resolve(S, T1, h('el1'))).toMatchObject({ code: 'ELEMENT_HANDLE_NOT_FOUND' });
    expect(handles.resolve(S, T2, h('el2')).ok).toBe(true);
    handles.invalidateSession(S, 'session_closed');
    expect(handles.size).toBe(0);
  });
});
