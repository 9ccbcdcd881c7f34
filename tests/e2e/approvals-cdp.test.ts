/**
 * The approvals suite (tests/kit/suites/approvals.ts) on the CDP driver: the real daemon and CLI with
 * the embedded headless Chromium acting. The person's channel is the one a CDP session has in real
 * use: the extension paired to the same daemon, in another Chromium, whose side panel decides for
 * every agent of that daemon. Then the daemon restarts with no extension: "Always on this site" still
 * holds (policy.json), and what still asks is denied, since nobody can answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { badgeText, openPanel } from '../kit/approvals-person';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { launchWithExtension, pair, type ExtensionBrowser } from '../kit/extension';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineApprovalsSuite } from '../kit/suites/approvals';
import { until } from '../kit/wait';
import type { SuiteEnv } from '../kit/agent';

let cli: Cli | undefined;
let pages: FixtureServer | undefined;
let person: ExtensionBrowser | undefined;
let personDir: string | undefined;
let starting: Promise<SuiteEnv> | undefined;

interface Status {
  clients: { kind: string; connected: boolean }[];
}

async function start(): Promise<SuiteEnv> {
  pages = await serveFixtures();
  const c = new Cli('bproxy-e2e-approvals-cdp-');
  cli = c;
  const started = await c.start(['--browser', 'headless']);
  person = await launchWithExtension();
  personDir = person.userDataDir;
  await pair(person, started.pairingCode, started.port);
  await until('the extension to connect', async () =>
    (await c.ok<Status>(['debug', 'status'])).clients.some((x) => x.kind === 'extension' && x.connected)
      ? true
      : undefined,
  );
  return { cli: c, pages, browser: 'headless' };
}

const browser = (): ExtensionBrowser => {
  if (!person) throw new Error('no extension browser');
  return person;
};

afterAll(async () => {
  const dirs = [personDir, cli?.home].filter((d): d is string => d !== undefined);
  await person?.close();
  await cli?.dispose();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

defineApprovalsSuite({
  label: 'the CDP driver',
  start: () => (starting ??= start()),
  panel: () => openPanel(browser()),
  badge: () => badgeText(browser()),
  // The extension holds none of the CDP driver's sessions: its badge is blank but for approvals.
  badgeWith: () => '',
});

describe('approvals after a daemon restart with no extension', () => {
  it('keeps "Always on this site" from policy.json, and denies what still asks since nobody can answer', async () => {
    const env = await (starting ??= start());
    const file = join(env.cli.home, 'policy.json');
    // The suite's "Always on this site" for the composer's Send.
    const saved = JSON.parse(readFileSync(file, 'utf8')) as {
      origins: Record<string, { classes?: Record<string, string> }>;
    };
    expect(saved.origins[env.pages.origin]?.classes?.send).toBe('allow');
    await person?.close();
    person = undefined;
    await env.cli.stop();
    await env.cli.start(['--browser', 'headless']);
    const created = await env.cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    const s = created.session;
    await env.cli.ok([
      'tab',
      'open',
      '-s',
      s,
      env.pages.url('approvals-composer.html'),
      '--browser',
      'headless',
    ]);
    await env.cli.ok(['click', '-s', s, '--selector', '#compose button[type=submit]']);
    expect((await env.cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Messages sent: 1');

    await env.cli.ok(['navigate', '-s', s, env.pages.url('approvals-checkout.html')]);
    const refused = await env.cli.fail(['click', '-s', s, '--selector', '#pay button']);
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain('no extension connected');
    expect(refused.message).toContain('"classes"');
    expect((await env.cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Orders placed: 0');
    await env.cli.ok(['session', 'close', '-s', s]);
  }, 90_000);
});
