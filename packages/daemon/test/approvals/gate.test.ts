/**
 * Approvals at the daemon: a click the page layer classes as sensitive is refused with
 * APPROVAL_REQUIRED and never forwarded; a person's decision on the extension's user channel lets the
 * agent's retry run exactly once; "always" is written to policy.json and holds after a restart; no
 * agent door decides; with no extension to ask, "ask" is denied with how to allow it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PolicyStore, loadPolicy, savePolicy, statePaths } from '@bproxy/client/lifecycle';
import type { BproxyForwardedRequest, BproxyResponse, SitePolicy, UserRequest } from '@bproxy/protocol';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';
import { scriptedLauncher } from '../helpers/scripted-launcher';

const ORIGIN = 'http://shop.test';
/** A person's policy: pay or submit, send and delete ask everywhere. */
const ASKING: SitePolicy = {
  version: 1,
  default: 'allow',
  origins: {},
  classes: { submit: 'ask', send: 'ask', delete: 'ask' },
};

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
const roots: string[] = [];
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function home(): ReturnType<typeof statePaths> {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-approvals-'));
  roots.push(root);
  const paths = statePaths(join(root, 'home'));
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  return paths;
}

/** A fake browser whose "#pay" is a Pay button; it counts the clicks it really ran. */
async function shop(d: TestDaemon): Promise<{ ext: FakeExtension; clicks: string[] }> {
  const fake = new FakeExtension(d);
  const clicks: string[] = [];
  fake.behaviour = (req: BproxyForwardedRequest) => {
    const target = JSON.stringify(req.params.target ?? null);
    if (req.action === 'tab.open')
      return { ok: true, data: { tabId: 7, url: `${ORIGIN}/checkout`, title: 'Checkout' } };
    if (req.action === 'inspect' && req.params.approval !== undefined) {
      const base = fake.defaultAnswer(req);
      if (base === 'drop' || !base.ok) return base;
      const pay = target.includes('#pay');
      const sensitive = pay
        ? {
            class: 'submit',
            name: 'Pay now',
            why: 'name "Pay now"',
            fields: [{ name: 'Card', type: 'text', value: '••••' }],
          }
        : { name: 'Help', fields: [] };
      return { ok: true, data: { ...(base.data as object), sensitive } };
    }
    if (req.action === 'click') {
      clicks.push(target);
      return { ok: true, data: { url: `${ORIGIN}/checkout`, title: 'Checkout', navigated: false } };
    }
    return fake.defaultAnswer(req);
  };
  await fake.connect();
  return { ext: fake, clicks };
}

async function decide(d: TestDaemon, request: UserRequest): Promise<unknown> {
  const handler = d.server.deps.drivers.userRequests;
  const record = d.server.deps.clients.all().find((c) => c.kind === 'extension');
  if (!handler || !record) throw new Error('no extension');
  return handler(record, request);
}

const code = (res: BproxyResponse): string => (res.ok ? 'ok' : res.error.code);

describe('approvals at the daemon', () => {
  it('refuses a Pay click with APPROVAL_REQUIRED, runs the retry once after Allow once, leaves a look-alike alone', async () => {
    daemon = await startDaemon({ sitePolicy: memoryPolicy(ASKING) });
    const s = await shop(daemon);
    ext = s.ext;
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: `${ORIGIN}/checkout` }),
    );
    const pay = { target: { selector: '#pay' } };
    const first = await daemon.call('click', pay, session);
    expect(code(first)).toBe('APPROVAL_REQUIRED');
    if (first.ok) return;
    expect(first.error.message).toMatch(/"Pay now".*pay or submit.*http:\/\/shop\.test/);
    const id = String(first.error.details?.approval);
    expect(s.clicks).toEqual([]);
    // An agent's retry before the decision is still held, with the same approval.
    const again = await daemon.call('click', pay, session);
    expect(!again.ok && again.error.details?.approval).toBe(id);
    // The look-alike (no class) is not held.
    expect(code(await daemon.call('click', { target: { selector: '#help' } }, session))).toBe('ok');
    expect(await decide(daemon, { kind: 'approvals' })).toMatchObject({
      ok: true,
      result: {
        pending: [{ id, class: 'submit', name: 'Pay now', origin: ORIGIN, fields: [{ value: '••••' }] }],
      },
    });
    expect(await decide(daemon, { kind: 'approval_decide', id, decision: 'allow_once' })).toMatchObject({
      ok: true,
    });
    expect(code(await daemon.call('click', pay, session))).toBe('ok');
    expect(s.clicks.filter((t) => t.includes('#pay'))).toHaveLength(1);
    // Consumed: the next one asks again.
    expect(code(await daemon.call('click', pay, session))).toBe('APPROVAL_REQUIRED');
    expect(s.clicks.filter((t) => t.includes('#pay'))).toHaveLength(1);
  });

  it('writes "Always on this site" to policy.json, which still holds after a restart; a denial is told once', async () => {
    const paths = home();
    savePolicy(paths, ASKING);
    daemon = await startDaemon({ sitePolicy: new PolicyStore(paths) });
    let s = await shop(daemon);
    ext = s.ext;
    let { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: `${ORIGIN}/checkout` }),
    );
    const pay = { target: { selector: '#pay' } };
    const held = await daemon.call('click', pay, session);
    const id = held.ok ? '' : String(held.error.details?.approval);
    expect(await decide(daemon, { kind: 'approval_decide', id, decision: 'deny' })).toMatchObject({
      ok: true,
    });
    const told = await daemon.call('click', pay, session);
    expect(!told.ok && told.error.message).toMatch(/denied/);
    const asked = await daemon.call('click', pay, session);
    const id2 = asked.ok ? '' : String(asked.error.details?.approval);
    expect(await decide(daemon, { kind: 'approval_decide', id: id2, decision: 'always' })).toMatchObject({
      ok: true,
    });
    expect(loadPolicy(paths).origins[ORIGIN]?.classes).toEqual({ submit: 'allow' });
    await ext.drop();
    await daemon.close();
    daemon = await startDaemon({ sitePolicy: new PolicyStore(paths) });
    s = await shop(daemon);
    ext = s.ext;
    ({ session } = okData<{ session: string }>(await daemon.call('tab.open', { url: `${ORIGIN}/checkout` })));
    expect(code(await daemon.call('click', pay, session))).toBe('ok');
    expect(code(await daemon.call('click', pay, session))).toBe('ok');
    expect(s.clicks).toHaveLength(2);
  });

  it('no agent door decides: the user kinds posted as actions fail, and a driver that is not the extension is refused', async () => {
    daemon = await startDaemon({ sitePolicy: memoryPolicy(ASKING) });
    const s = await shop(daemon);
    ext = s.ext;
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: `${ORIGIN}/checkout` }),
    );
    const held = await daemon.call('click', { target: { selector: '#pay' } }, session);
    const id = held.ok ? '' : String(held.error.details?.approval);
    for (const action of ['approvals', 'approval_decide']) {
      const res = await daemon.post({
        id: `r-${action}`,
        action,
        params: { id, decision: 'always' },
        deadline: Date.now() + 5_000,
      });
      expect(res.body.ok).toBe(false);
    }
    const handler = daemon.server.deps.drivers.userRequests;
    if (!handler) throw new Error('no user-request handler');
    const cdp = { ...daemon.server.deps.clients.all()[0], kind: 'cdp' } as Parameters<typeof handler>[0];
    expect(await handler(cdp, { kind: 'approval_decide', id, decision: 'allow_once' })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect(daemon.server.deps.approvals.get(id)?.state).toBe('pending');
    expect(code(await daemon.call('click', { target: { selector: '#pay' } }, session))).toBe(
      'APPROVAL_REQUIRED',
    );
    expect(s.clicks).toEqual([]);
  });

  it('denies "ask" in a headless daemon with no extension to ask, saying how to allow it, and forwards nothing', async () => {
    const headless = scriptedLauncher('headless', 'launched');
    daemon = await startDaemon({ sitePolicy: memoryPolicy(ASKING), launchers: [headless.launcher] });
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: `${ORIGIN}/checkout`, browser: 'headless' }),
    );
    const res = await daemon.call('click', { target: { selector: '#pay' } }, session);
    expect(code(res)).toBe('POLICY_DENIED');
    expect(!res.ok && res.error.message).toMatch(/no extension connected.*policy\.json/);
    expect(daemon.server.deps.approvals.pending()).toEqual([]);
    expect(headless.drivers[0]?.received.map((r) => r.action)).toEqual(['tab.open', 'inspect']);
    // A look-alike is forwarded (whatever the scripted browser answers).
    await daemon.call('click', { target: { selector: '#help' } }, session);
    expect(headless.drivers[0]?.received.map((r) => r.action)).toEqual([
      'tab.open',
      'inspect',
      'inspect',
      'click',
    ]);
  });
});
