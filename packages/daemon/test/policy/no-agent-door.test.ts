/**
 * No agent-facing door writes the site policy: every action of the protocol's table (which every MCP
 * tool and CLI action command sends — packages/tools' and the CLI's own tests tie them to it), tried
 * as an agent with empty params and with a policy for params, leaves policy.json byte for byte and the
 * denied origin denied; a user request posted as an agent's body is not an action; and a driver that
 * is not the extension cannot speak on the user channel. Only the extension's user channel writes it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PolicyStore, savePolicy, statePaths } from '@bproxy/client/lifecycle';
import { ACTION_NAMES, type SitePolicy } from '@bproxy/protocol';
import { FakeExtension, okData, startDaemon, type TestDaemon } from '../harness';

const DENIED = 'https://bank.example';
const POLICY: SitePolicy = { version: 1, default: 'allow', origins: { [DENIED]: { rule: 'deny' } } };
const OPEN: SitePolicy = { version: 1, default: 'allow', origins: { [DENIED]: { rule: 'allow' } } };

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

describe('who can change the site policy', () => {
  it('no protocol action, whatever its params, writes policy.json or lets the denied origin through', async () => {
    const root = mkdtempSync(join(tmpdir(), 'bproxy-policy-door-'));
    roots.push(root);
    const paths = statePaths(join(root, 'home'));
    mkdirSync(paths.home, { recursive: true, mode: 0o700 });
    savePolicy(paths, POLICY);
    const before = { bytes: readFileSync(paths.policy), mtime: statSync(paths.policy).mtimeMs };
    const store = new PolicyStore(paths);
    let saves = 0;
    const save = store.save.bind(store);
    store.save = (policy) => {
      saves++;
      return save(policy);
    };
    daemon = await startDaemon({ sitePolicy: store });
    ext = new FakeExtension(daemon);
    await ext.connect();
    const { session } = okData<{ session: string }>(
      await daemon.call('tab.open', { url: 'https://ok.example/' }),
    );
    const payloads: Record<string, unknown>[] = [
      {},
      { policy: OPEN },
      { kind: 'policy_set', policy: OPEN },
      { origin: DENIED, rule: 'allow', default: 'allow', version: 1, origins: OPEN.origins },
    ];
    const tried: string[] = [];
    for (const action of ACTION_NAMES) {
      if (action === 'session.close') continue; // would end the session the rest runs in; tried last
      for (const params of payloads) {
        await daemon.call(action, params, session);
        tried.push(action);
      }
    }
    // A user request posted to the agents' door is no action at all.
    for (const action of ['policy', 'policy_set', 'policy_reset']) {
      const res = await daemon.post({
        id: `r-${action}`,
        action,
        params: { policy: OPEN },
        deadline: Date.now() + 5_000,
      });
      expect(res.body.ok).toBe(false);
    }
    await daemon.call('session.close', {}, session);
    expect(new Set(tried).size).toBe(ACTION_NAMES.length - 1);
    expect(saves).toBe(0);
    expect(readFileSync(paths.policy)).toEqual(before.bytes);
    expect(statSync(paths.policy).mtimeMs).toBe(before.mtime);
    const again = await daemon.call('tab.open', { url: `${DENIED}/` });
    expect(again.ok ? 'ok' : again.error.code).toBe('POLICY_DENIED');
  });

  it('refuses the policy requests from a driver that is not the extension', async () => {
    daemon = await startDaemon();
    ext = new FakeExtension(daemon);
    await ext.connect();
    const handler = daemon.server.deps.drivers.userRequests;
    if (!handler) throw new Error('no user-request handler');
    const cdp = { ...daemon.server.deps.clients.all()[0], kind: 'cdp' } as Parameters<typeof handler>[0];
    for (const request of [
      { kind: 'policy_set', policy: OPEN },
      { kind: 'policy_reset' },
      { kind: 'policy' },
    ] as const)
      expect(await handler(cdp, request)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});
