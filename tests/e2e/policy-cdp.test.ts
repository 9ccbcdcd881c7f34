/**
 * The site-policy suite (tests/kit/suites/policy.ts) on the CDP driver: the real daemon and CLI with
 * the embedded headless Chromium. Then the popup the guard stopped, seen from the browser itself: a
 * Chromium the test starts on its own debugging port, which the daemon attaches to (the same CDP
 * driver and guard), so the test can list the browser's targets — the stopped popup never joins the
 * session, so only the browser's own list shows whether it was closed.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectNoChromiumLeft, startDebuggableChromium, type DebuggableChromium } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { listTargets } from '../kit/devtools-target';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { servePolicySites, type PolicySites } from '../kit/policy-sites';
import { definePolicySuite } from '../kit/suites/policy';
import { until } from '../kit/wait';
import type { CliError } from '../kit/cli';
import type { SuiteEnv } from '../kit/agent';

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let starting: Promise<SuiteEnv> | undefined;
let attachedCli: Cli | undefined;
let external: DebuggableChromium | undefined;
let sites: PolicySites | undefined;

async function start(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  cli = new Cli('bproxy-e2e-policy-cdp-');
  await cli.start(['--browser', 'headless']);
  return { cli, pages, browser: 'headless' };
}

afterAll(async () => {
  const dirs = [cli, attachedCli].flatMap((c) => (c ? [c.home] : []));
  await cli?.dispose();
  await attachedCli?.dispose();
  await pages?.close();
  await sites?.close();
  await external?.close();
  await expectNoChromiumLeft([...dirs, ...(external ? [external.userDataDir] : [])]);
}, 60_000);

definePolicySuite({ label: 'the CDP driver', start: () => (starting ??= start()) });

describe('the site policy in a CDP browser whose targets the test lists', () => {
  it('closes the popup window.open started on the denied origin: the browser lists no page of it', async () => {
    external = await startDebuggableChromium({ prefix: 'bproxy-e2e-policy-popup-' });
    sites = await servePolicySites();
    const c = (attachedCli = new Cli('bproxy-e2e-policy-popup-home-'));
    await c.start(['--browser', 'none', '--attach', external.userDataDir]);
    const policy = { version: 1, default: 'allow', origins: { [sites.deniedOrigin]: { rule: 'deny' } } };
    const file = join(c.home, 'policy.json');
    writeFileSync(file, JSON.stringify(policy), { mode: 0o600 });
    chmodSync(file, 0o600);
    const { session: s } = await c.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await c.ok(['tab', 'open', '-s', s, sites.start, '--browser', 'attached']);
    const port = external.port;
    const pagesNow = async (): Promise<{ id: string; url: string }[]> =>
      (await listTargets(port)).filter((t) => t.type === 'page');
    const before = new Set((await pagesNow()).map((t) => t.id));
    expect([...before].length).toBeGreaterThan(0);

    const clicked = await c.run(['click', '-s', s, '--selector', '#popup']);
    if (clicked.code !== 0) {
      const error = (clicked.json as { error: CliError }).error;
      expect(error.code, error.message).toBe('POLICY_DENIED');
    }
    // The guard told the daemon it stopped the popup (only a stop pauses the session here)…
    await until('the session to pause on the denied origin', async () => {
      const listed = await c.ok<{ sessions: { session: string; state: string; pauseReason?: string }[] }>([
        'session',
        'list',
        '-s',
        s,
      ]);
      const mine = listed.sessions.find((x) => x.session === s);
      return mine?.state === 'paused' && mine.pauseReason?.includes(`${sites?.deniedOrigin} is denied`);
    });
    expect(sites.served('/popup.html')).toBe(0);
    // …and the browser holds no page but those it had before the click: the popup is closed, not left
    // as a blocked window.
    const left = await until(
      'the stopped popup to be closed in the browser',
      async () => {
        const now = await pagesNow();
        const extra = now.filter((t) => !before.has(t.id));
        if (extra.length === 0) return now;
        throw new Error(`pages left: ${JSON.stringify(extra)}`);
      },
      15_000,
    );
    expect(left.map((t) => t.url)).toContain(sites.start);
    await c.ok(['session', 'close', '-s', s]);
  }, 90_000);
});
