/**
 * `bproxy host install|status|uninstall` and `bproxy setup` as real processes, into a temporary HOME
 * and BPROXY_HOME: JSON on stdout, the launcher running the host bundle built beside the CLI with this
 * Node, status running it once, usage errors for unknown browsers, and help that names every browser.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BROWSER_IDS } from '@bproxy/native-host/registration';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_NAMES_HELP } from '../../src/commands/host';
import { createHarness, type Harness } from '../helpers/cli-harness';

let h: Harness;
const roots: string[] = [];
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(async () => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  await h.cleanup();
});

/** A HOME where Chromium has run once, and a BPROXY_HOME beside it. */
function user(): { env: Record<string, string>; home: string; state: string } {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-cli-host-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
  writeFileSync(join(home, '.config', 'chromium', 'Local State'), '{}');
  const state = join(root, 'state');
  return { env: { HOME: home, BPROXY_HOME: state }, home, state };
}

const manifestOf = (home: string) =>
  join(home, '.config', 'chromium', 'NativeMessagingHosts', 'com.bproxy.host.json');

describe('bproxy host', () => {
  it('installs, reports the host answering, and uninstalls, in JSON', async () => {
    const { env, home, state } = user();
    const install = await h.run(['host', 'install', '--browser', 'chromium'], { env });
    expect(install.code).toBe(0);
    const installed = JSON.parse(install.stdout) as Record<string, unknown>;
    expect(installed).toMatchObject({
      launcher: join(state, 'host', 'bproxy-host'),
      node: process.execPath,
      // The host's own copy, made from the bundle beside the CLI.
      bundle: join(state, 'host', BPROXY_VERSION, 'native-host.mjs'),
      installedFrom: join(dirname(h.cli), 'native-host.mjs'),
      version: BPROXY_VERSION,
      registered: [{ browser: 'chromium', location: manifestOf(home), replaced: false }],
    });
    expect(existsSync(manifestOf(home))).toBe(true);

    const status = await h.run(['host', 'status', '--browser', 'chromium'], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      ok: true,
      browsers: [{ browser: 'chromium', registered: true, stale: false, answers: { ok: true } }],
    });

    const uninstall = await h.run(['host', 'uninstall'], { env });
    expect(uninstall.code).toBe(0);
    expect(JSON.parse(uninstall.stdout)).toMatchObject({
      browsers: [{ browser: 'chromium', outcome: 'removed' }],
    });
    expect(existsSync(manifestOf(home))).toBe(false);
    expect(existsSync(join(state, 'host', 'bproxy-host'))).toBe(false);
    expect(existsSync(join(state, 'host', BPROXY_VERSION))).toBe(false);
  }, 30_000);

  it('refuses an unknown browser as a usage error that lists the names', async () => {
    const { env } = user();
    const run = await h.run(['host', 'install', '--browser', 'netscape'], { env });
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stderr) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('USAGE');
    expect(error.error.message).toBe(`unknown browser "netscape"; known browsers: ${BROWSER_IDS.join(', ')}`);
  });

  it('names every browser it knows in its help', async () => {
    expect(BROWSER_NAMES_HELP).toBe(BROWSER_IDS.join(', '));
    const help = await h.run(['host', 'install', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(BROWSER_NAMES_HELP);
  });
});

describe('bproxy setup', () => {
  it('registers the host for the browsers found, proves it answers, and says what to do next', async () => {
    const { env, home } = user();
    const run = await h.run(['setup', '--browser', 'chromium'], { env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      built: boolean;
      answers: unknown;
      next: string[];
      extension: unknown;
    };
    expect(report).toMatchObject({ built: false, answers: { ok: true }, extension: null });
    expect(report.next.join('\n')).toContain('Load unpacked');
    expect(JSON.parse(readFileSync(manifestOf(home), 'utf8'))).toMatchObject({ name: 'com.bproxy.host' });

    const pretty = await h.run(['setup', '--browser', 'chromium', '--pretty'], { env });
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toContain('registered with Chromium');
    expect(pretty.stdout).toContain('the host starts and answers');
    expect(pretty.stdout).toContain('Next:\n  1. Open chrome://extensions');
  }, 30_000);
});
