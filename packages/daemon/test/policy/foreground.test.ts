/**
 * The site policy's `foreground` setting: under "deny" an agent's tab.open asking for the front
 * (`active: true`, the CLI's --foreground) is answered POLICY_DENIED and nothing reaches the browser;
 * a tab in the background, or one with no wish, still opens. Without the setting the front is allowed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicySource } from '../../src/policy/site-policy';
import { memoryPolicy } from '../../src/policy/site-policy';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

let daemon: TestDaemon | undefined;
let ext: FakeExtension | undefined;
afterEach(async () => {
  await ext?.drop();
  await daemon?.close();
  ext = undefined;
  daemon = undefined;
});

async function start(sitePolicy: PolicySource): Promise<{ d: TestDaemon; x: FakeExtension }> {
  const d = await startDaemon({ sitePolicy });
  const x = new FakeExtension(d);
  await x.connect();
  daemon = d;
  ext = x;
  return { d, x };
}

describe('the site policy on bringing a tab to the front', () => {
  it('answers POLICY_DENIED to a tab.open asking for the front when foreground is denied, forwarding nothing', async () => {
    const { d, x } = await start(
      memoryPolicy({ version: 1, default: 'allow', origins: {}, foreground: 'deny' }),
    );
    const { session } = okData<{ session: string }>(await d.call('session.create', {}));
    const res = await d.call('tab.open', { url: 'https://ok.example/', active: true }, session);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.error.code).toBe('POLICY_DENIED');
    expect(res.error.message).toContain('"foreground": "deny"');
    expect(res.error.message).toContain('without --foreground');
    expect(res.error.details).toMatchObject({ rule: 'foreground: deny' });
    expect(x.received.filter((r) => r.action === 'tab.open')).toHaveLength(0);
    // Without -s, a refused open leaves no session behind.
    const sessions = okData<{ sessions: unknown[] }>(await d.call('session.list', {})).sessions.length;
    const bare = await d.call('tab.open', { url: 'https://ok.example/', active: true });
    expect(bare.ok ? '' : bare.error.code).toBe('POLICY_DENIED');
    expect(okData<{ sessions: unknown[] }>(await d.call('session.list', {})).sessions).toHaveLength(sessions);

    // The background (asked for, or by default) is untouched.
    okData(await d.call('tab.open', { url: 'https://ok.example/a', active: false }, session));
    okData(await d.call('tab.open', { url: 'https://ok.example/b' }, session));
    const opened = x.received.filter((r) => r.action === 'tab.open');
    expect(opened.map((r) => r.params.active)).toEqual([false, undefined]);
  });

  it('lets an agent bring its tab to the front when the policy does not forbid it', async () => {
    const { d, x } = await start(memoryPolicy({ version: 1, default: 'allow', origins: {} }));
    okData(await d.call('tab.open', { url: 'https://ok.example/', active: true }));
    expect(x.received.find((r) => r.action === 'tab.open')?.params.active).toBe(true);
  });

  it('refuses the front when policy.json is unusable (fail closed)', async () => {
    const broken: PolicySource = {
      current: () => ({ broken: 'policy.json is not valid JSON' }),
      decide: (url) => ({ origin: new URL(url).origin, decision: 'allow', rule: 'default' }),
      save: (p) => p,
    };
    const { d, x } = await start(broken);
    const res = await d.call('tab.open', { url: 'https://ok.example/', active: true });
    expect(res.ok ? '' : res.error.code).toBe('POLICY_DENIED');
    expect(res.ok ? '' : res.error.message).toContain('unusable');
    expect(x.received.filter((r) => r.action === 'tab.open')).toHaveLength(0);
  });
});
