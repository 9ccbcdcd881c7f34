/**
 * Logins that persist, cookies and emulation with the CDP driver: the state suite
 * (tests/kit/suites/state.ts) on the embedded headless Chromium the daemon launches, then what only a
 * launched browser has — a named profile that keeps a login across a browser restart.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type SuiteEnv } from '../kit/agent';
import { expectNoChromiumLeft } from '../kit/chromium';
import { Cli } from '../kit/cli';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { defineStateSuite } from '../kit/suites/state';

let pages: FixtureServer | undefined;
const clis: Cli[] = [];
let starting: Promise<SuiteEnv> | undefined;

async function fixtures(): Promise<FixtureServer> {
  pages ??= await serveFixtures();
  return pages;
}

function newCli(): Cli {
  const c = new Cli('bproxy-e2e-state-cdp-');
  clis.push(c);
  return c;
}

async function startHeadless(): Promise<SuiteEnv> {
  const p = await fixtures();
  const c = newCli();
  await c.start(['--browser', 'headless']);
  return { cli: c, pages: p, browser: 'headless' };
}

afterAll(async () => {
  const homes = clis.map((c) => c.home);
  for (const c of clis) await c.dispose();
  await pages?.close();
  await expectNoChromiumLeft(homes);
}, 60_000);

defineStateSuite({
  label: 'the CDP driver (embedded headless Chromium)',
  userChrome: false,
  start: () => (starting ??= startHeadless()),
});

describe('profiles of the browser bproxy launches', () => {
  it('a login done once survives a browser restart with --profile, and a browser without one starts signed out', async () => {
    const p = await fixtures();
    const c = newCli();
    const agent = new Agent({ cli: c, pages: p, browser: 'headless' });
    const status = async (s: string): Promise<string> =>
      (await agent.text(s)).split('\n')[1] ?? '(no status line)';

    await c.start(['--browser', 'headless', '--profile', 'shop']);
    const first = await agent.session('persist-signin.html');
    expect(await status(first)).toBe('Not signed in');
    const [name, signIn] = await agent.handles(first, 'Your name', 'Sign in');
    await c.ok(['fill', '-s', first, name, 'Ada']);
    await c.ok(['click', '-s', first, signIn]);
    expect(await status(first)).toBe('Signed in as Ada');
    const profile = join(c.home, 'profiles', 'shop');
    expect(lstatSync(profile).mode & 0o777).toBe(0o700);
    // The daemon and its browser stop: the next start launches a new browser on the same profile.
    await c.stop();

    await c.start(['--browser', 'headless', '--profile', 'shop']);
    const second = await agent.session('persist-signin.html');
    expect(await status(second)).toMatch(/^Welcome back, Ada \(session [a-z0-9]+\)$/);
    await c.stop();

    await c.start(['--browser', 'headless']);
    const fresh = await agent.session('persist-signin.html');
    expect(await status(fresh)).toBe('Not signed in');
    await c.stop();

    const refused = await c.run(['service', 'start', '--browser', 'headless', '--profile', '../shop']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('--profile must be a plain name');
  }, 120_000);
});
