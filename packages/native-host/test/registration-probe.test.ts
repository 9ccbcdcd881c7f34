/**
 * `status` really runs the installed launcher, as a browser does (our origin, no PATH to find Node
 * on): a fresh install answers hello; a missing bundle or Node is named as stale and does not answer.
 */
import { copyFileSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostStatus, installHost, registrationContext } from '../src/registration/index';
import { buildBundles, cleanup, type Bundles } from './helpers/host-process';

let bundles: Bundles | null = null;
const homes: string[] = [];
beforeAll(async () => {
  bundles = await buildBundles();
}, 60_000);
afterAll(() => cleanup(homes, bundles), 30_000);

async function installed(options: { bakeHome: boolean }) {
  if (bundles === null) throw new Error('not built');
  const root = mkdtempSync(join(tmpdir(), 'bproxy-probe-'));
  homes.push(root);
  const home = join(root, 'home');
  const profile = join(home, '.config', 'chromium');
  mkdirSync(profile, { recursive: true });
  writeFileSync(join(profile, 'Local State'), '{}');
  // A copy of the bundles of its own, so that this test can break them.
  const dist = join(root, 'dist');
  mkdirSync(dist);
  for (const file of ['native-host.mjs', 'daemon.mjs'])
    copyFileSync(join(bundles.dir, file), join(dist, file));
  const env = options.bakeHome ? { BPROXY_HOME: join(root, 'state') } : {};
  const context = registrationContext({ platform: 'linux', home, env, systemRoot: join(root, 'system') });
  await installHost({
    context,
    node: process.execPath,
    bundle: join(dist, 'native-host.mjs'),
    browsers: ['chromium'],
  });
  return { context, dist };
}

describe('status running the installed launcher', () => {
  it.each([true, false])(
    'finds a fresh install answering hello (BPROXY_HOME baked in: %s)',
    async (bakeHome) => {
      const { context } = await installed({ bakeHome });
      const status = await hostStatus({ context, browsers: ['chromium'] });
      expect(status.browsers[0]).toMatchObject({
        browser: 'chromium',
        registered: true,
        stale: false,
        answers: { ok: true, hostVersion: BPROXY_VERSION, protocolVersion: 1 },
      });
      expect(status.ok).toBe(true);
    },
    30_000,
  );

  it('calls a registration whose bundle is gone stale, and says the host does not answer', async () => {
    const { context, dist } = await installed({ bakeHome: true });
    renameSync(join(dist, 'native-host.mjs'), join(dist, 'moved.mjs'));
    const status = await hostStatus({ context, browsers: ['chromium'] });
    const [chromium] = status.browsers;
    expect(chromium?.problems.join()).toContain('the host bundle');
    expect(chromium?.answers).toMatchObject({
      ok: false,
      reason: expect.stringContaining('without answering hello'),
    });
    expect(status.ok).toBe(false);
  }, 30_000);
});
