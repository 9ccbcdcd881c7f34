/**
 * Approvals' built-in defaults and the classes known from the action itself: with no `classes` in
 * policy.json, the user's own Chrome asks for every class and a browser bproxy launched for agents only
 * for pay/submit, send and delete; an attached browser counts as the user's. Upload and state export
 * are asked after their own doors (allowed folders, user-chrome.json), a first visit on navigate or
 * tab.open when the person turned first_visit to ask; each Allow once runs one retry.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SITE_POLICY,
  type BproxyResponse,
  type SitePolicy,
  type UserRequest,
} from '@bproxy/protocol';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';
import { scriptedLauncher } from '../helpers/scripted-launcher';

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

const code = (res: BproxyResponse): string => (res.ok ? 'ok' : res.error.code);
const approvalOf = (res: BproxyResponse): string => (res.ok ? '' : String(res.error.details?.approval));

/** A BPROXY_HOME with its tmp folder (the daemon's tmpRoot), 0700. */
function homeDir(): string {
  const home = mkdtempSync(join(tmpdir(), 'bproxy-approval-defaults-'));
  chmodSync(home, 0o700);
  roots.push(home);
  return home;
}

/** A scripted extension (the user's own Chrome) whose "#pay" is a Pay button. */
async function userChrome(d: TestDaemon): Promise<FakeExtension> {
  const fake = new FakeExtension(d);
  fake.behaviour = (req) => {
    if (req.action === 'inspect' && req.params.approval !== undefined) {
      const base = fake.defaultAnswer(req);
      if (base === 'drop' || !base.ok) return base;
      const pay = JSON.stringify(req.params.target).includes('#pay');
      const sensitive = pay ? { class: 'submit', name: 'Pay', fields: [] } : { name: 'Help', fields: [] };
      return { ok: true, data: { ...(base.data as object), sensitive } };
    }
    if (req.action === 'state.save') return { ok: true, data: { cookies: [], origins: [] } };
    if (req.action === 'cookies.list') return { ok: true, data: { url: 'https://shop.test/', cookies: [] } };
    if (req.action === 'upload' || req.action === 'click')
      return { ok: true, data: { url: 'https://shop.test/', title: 'Shop', navigated: false } };
    return fake.defaultAnswer(req);
  };
  await fake.connect();
  return fake;
}

async function decide(d: TestDaemon, request: UserRequest): Promise<unknown> {
  const handler = d.server.deps.drivers.userRequests;
  const record = d.server.deps.clients.all().find((c) => c.kind === 'extension');
  if (!handler || !record) throw new Error('no extension');
  return handler(record, request);
}

describe('approvals: built-in defaults', () => {
  it("with no classes in policy.json, the user's Chrome asks for pay, upload and state export", async () => {
    const home = homeDir();
    daemon = await startDaemon({ tmpRoot: join(home, 'tmp') });
    ext = await userChrome(daemon);
    writeFileSync(join(home, 'user-chrome.json'), '{"cookies": true}', { mode: 0o600 });
    const { session, tmpDir } = okData<{ session: string; tmpDir: string }>(
      await daemon.call('session.create', {}),
    );
    okData(await daemon.call('tab.open', { url: 'https://shop.test/' }, session));
    writeFileSync(join(tmpDir, 'cv.txt'), 'cv');
    const pay = await daemon.call('click', { target: { selector: '#pay' } }, session);
    expect(code(pay)).toBe('APPROVAL_REQUIRED');
    const upload = await daemon.call('upload', { target: { selector: 'input' }, files: ['cv.txt'] }, session);
    expect(code(upload)).toBe('APPROVAL_REQUIRED');
    const save = await daemon.call('state.save', { path: 'state.json' }, session);
    expect(code(save)).toBe('APPROVAL_REQUIRED');
    expect(daemon.server.deps.approvals.pending().map((a) => [a.class, a.action])).toEqual([
      ['submit', 'click'],
      ['upload', 'upload'],
      ['state_export', 'state.save'],
    ]);
    // What the person is shown of an upload: the files by name.
    expect(daemon.server.deps.approvals.pending()[1]?.fields).toEqual([
      { name: 'file', type: 'file', value: 'cv.txt' },
    ]);
    // A click on what is not sensitive and a first visit are not asked about.
    expect(code(await daemon.call('click', { target: { selector: '#help' } }, session))).toBe('ok');
    expect(code(await daemon.call('navigate', { url: 'https://new.test/' }, session))).toBe('ok');
    expect(ext.received.filter((r) => ['upload', 'state.save'].includes(r.action))).toEqual([]);
    expect(ext.received.filter((r) => r.action === 'click')).toHaveLength(1);
  });

  it('a browser bproxy launched asks (denies, with no one to ask) only pay/submit, send and delete; an attached one is the user’s', async () => {
    const headless = scriptedLauncher('headless', 'launched');
    const attached = scriptedLauncher('attached', 'attached');
    daemon = await startDaemon({ launchers: [headless.launcher, attached.launcher] });
    for (const [browser, launcher] of [
      ['headless', headless],
      ['attached', attached],
    ] as const) {
      const { session, tmpDir } = okData<{ session: string; tmpDir: string }>(
        await daemon.call('session.create', {}),
      );
      okData(await daemon.call('tab.open', { url: 'https://shop.test/', browser }, session));
      writeFileSync(join(tmpDir, 'cv.txt'), 'cv');
      const pay = await daemon.call('click', { target: { selector: '#pay' } }, session);
      expect(code(pay), browser).toBe('POLICY_DENIED');
      expect(!pay.ok && pay.error.message).toMatch(/no extension connected.*policy\.json/);
      const upload = await daemon.call(
        'upload',
        { target: { selector: 'input' }, files: ['cv.txt'] },
        session,
      );
      const list = await daemon.call('cookies.list', {}, session);
      const forwarded = launcher.drivers[0]?.received.map((r) => r.action) ?? [];
      if (browser === 'headless') {
        // Forwarded (the scripted browser's answers are not those of a page: whatever they say).
        expect([code(upload), code(list)]).not.toContain('POLICY_DENIED');
        expect(forwarded).toEqual(['tab.open', 'inspect', 'upload', 'cookies.list']);
      } else {
        expect([code(upload), code(list)]).toEqual(['POLICY_DENIED', 'POLICY_DENIED']);
        expect(!upload.ok && upload.error.message).toMatch(/"upload": "allow"/);
        expect(forwarded).toEqual(['tab.open', 'inspect']);
      }
    }
    expect(daemon.server.deps.approvals.pending()).toEqual([]);
  });
});

describe('approvals: upload, state export, first visit', () => {
  it('asks an upload only after the allowed folders let it through, and runs the retry once after Allow once', async () => {
    const home = homeDir();
    daemon = await startDaemon({ tmpRoot: join(home, 'tmp') });
    ext = await userChrome(daemon);
    const { session, tmpDir } = okData<{ session: string; tmpDir: string }>(
      await daemon.call('session.create', {}),
    );
    okData(await daemon.call('tab.open', { url: 'https://shop.test/' }, session));
    writeFileSync(join(tmpDir, 'cv.txt'), 'cv');
    // The folders' door answers first, and nobody is asked about a file it refuses.
    const outside = await daemon.call(
      'upload',
      { target: { selector: 'input' }, files: ['/etc/hostname'] },
      session,
    );
    expect(code(outside)).toBe('PATH_NOT_ALLOWED');
    expect(daemon.server.deps.approvals.pending()).toEqual([]);
    const params = { target: { selector: 'input' }, files: ['cv.txt'] };
    const held = await daemon.call('upload', params, session);
    expect(code(held)).toBe('APPROVAL_REQUIRED');
    expect(
      await decide(daemon, { kind: 'approval_decide', id: approvalOf(held), decision: 'allow_once' }),
    ).toMatchObject({ ok: true });
    expect(code(await daemon.call('upload', params, session))).toBe('ok');
    expect(code(await daemon.call('upload', params, session))).toBe('APPROVAL_REQUIRED');
    expect(ext.received.filter((r) => r.action === 'upload')).toHaveLength(1);
  });

  it("asks a state export in the user's Chrome only once user-chrome.json allows cookies at all (STATE_NOT_ALLOWED first)", async () => {
    const home = homeDir();
    daemon = await startDaemon({ tmpRoot: join(home, 'tmp') });
    ext = await userChrome(daemon);
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: 'https://shop.test/' }),
    );
    expect(code(await daemon.call('state.save', { path: 'state.json' }, session))).toBe('STATE_NOT_ALLOWED');
    expect(code(await daemon.call('cookies.list', {}, session))).toBe('STATE_NOT_ALLOWED');
    expect(daemon.server.deps.approvals.pending()).toEqual([]);
    writeFileSync(join(home, 'user-chrome.json'), '{"cookies": true}', { mode: 0o600 });
    const held = await daemon.call('cookies.list', {}, session);
    expect(code(held)).toBe('APPROVAL_REQUIRED');
    expect(!held.ok && held.error.details).toMatchObject({
      class: 'state_export',
      origin: 'https://shop.test',
    });
    expect(
      await decide(daemon, { kind: 'approval_decide', id: approvalOf(held), decision: 'always' }),
    ).toMatchObject({ ok: true });
    expect(code(await daemon.call('cookies.list', {}, session))).toBe('ok');
    // "Always on this site": the next export there goes without asking.
    expect(code(await daemon.call('state.save', { path: 'state.json' }, session))).toBe('ok');
    expect(ext.received.filter((r) => r.action === 'cookies.list' || r.action === 'state.save')).toHaveLength(
      2,
    );
  });

  it('asks a first visit by navigate or tab.open when first_visit is ask; a named origin or the same origin goes', async () => {
    const asking: SitePolicy = {
      ...DEFAULT_SITE_POLICY,
      origins: { 'https://known.test': { rule: 'allow' } },
      classes: { first_visit: 'ask' },
    };
    daemon = await startDaemon({ sitePolicy: memoryPolicy(asking) });
    ext = await userChrome(daemon);
    const opened = await daemon.call('tab.open', { url: 'https://new.test/' });
    expect(code(opened)).toBe('APPROVAL_REQUIRED');
    expect(!opened.ok && opened.error.details).toMatchObject({
      class: 'first_visit',
      origin: 'https://new.test',
    });
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: 'https://known.test/' }),
    );
    const go = { url: 'https://new.test/a' };
    const held = await daemon.call('navigate', go, session);
    expect(code(held)).toBe('APPROVAL_REQUIRED');
    expect(ext.received.filter((r) => r.action === 'navigate')).toEqual([]);
    expect(
      await decide(daemon, { kind: 'approval_decide', id: approvalOf(held), decision: 'allow_once' }),
    ).toMatchObject({ ok: true });
    expect(code(await daemon.call('navigate', go, session))).toBe('ok');
    // Within the origin it is on, a navigate is no first visit.
    expect(code(await daemon.call('navigate', { url: 'https://new.test/b' }, session))).toBe('ok');
    expect(code(await daemon.call('navigate', { url: 'https://known.test/' }, session))).toBe('ok');
    // Consumed: going there again from elsewhere asks again.
    expect(code(await daemon.call('navigate', go, session))).toBe('APPROVAL_REQUIRED');
    expect(ext.received.filter((r) => r.action === 'navigate').map((r) => r.params.url)).toEqual([
      'https://new.test/a',
      'https://new.test/b',
      'https://known.test/',
    ]);
  });
});
