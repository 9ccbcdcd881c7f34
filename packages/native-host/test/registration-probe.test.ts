/**
 * `status` really runs the installed launcher, as a browser does (our origin, no PATH to find Node
 * on): a fresh install answers hello; a missing bundle or Node is named as stale and does not answer.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostStatus, installHost, registrationContext } from '../src/registration/index';
import { buildBundles, cleanup, withVersion, type Bundles } from './helpers/host-process';

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
  const report = await installHost({
    context,
    node: process.execPath,
    bundle: join(dist, 'native-host.mjs'),
    browsers: ['chromium'],
  });
  return { context, dist, copy: dirname(report.bundle) };
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
    const { context, copy } = await installed({ bakeHome: true });
    renameSync(join(copy, 'native-host.mjs'), join(copy, 'moved.mjs'));
    const status = await hostStatus({ context, browsers: ['chromium'] });
    const [chromium] = status.browsers;
    expect(chromium?.problems.join()).toContain('the host bundle');
    expect(chromium?.answers).toMatchObject({
      ok: false,
      reason: expect.stringContaining('without answering hello'),
    });
    expect(status.ok).toBe(false);
  }, 30_000);

  it.each([
    ['0.1.99', true],
    ['0.0.9', false],
    ['99.0.0', false],
  ])(
    'probes a host of version %s with this bproxy and names an incompatible one with `bproxy setup`',
    async (version, works) => {
      const { context, copy } = await installed({ bakeHome: true });
      const file = join(copy, 'native-host.mjs');
      writeFileSync(file, withVersion(readFileSync(file, 'utf8'), version));
      const status = await hostStatus({ context, browsers: ['chromium'] });
      const answers = status.browsers[0]?.answers;
      if (works) {
        expect(answers).toMatchObject({ ok: true, hostVersion: version });
        expect(status.ok).toBe(true);
      } else {
        expect(answers).toEqual({
          ok: false,
          reason:
            version === '0.0.9'
              ? `the native host is version 0.0.9, older than this bproxy ${BPROXY_VERSION}, and they do not work together: run \`bproxy setup\``
              : `the native host is version 99.0.0, newer than this bproxy ${BPROXY_VERSION}, and they do not work together: update bproxy, then run \`bproxy setup\``,
        });
        expect(status.ok).toBe(false);
      }
    },
    30_000,
  );
});
