/**
 * The site policy, the same on every driver: with the second site denied in BPROXY_HOME/policy.json
 * (written by hand while the daemon runs, as a person would), a navigate there is refused before the
 * browser asks for it; a link, a 302 and a page's script that would take a session's tab there are
 * stopped in the browser before any request reaches the denied site (its server counts none), the
 * session pauses with the reason, the action answers POLICY_DENIED, and nothing runs on that tab even
 * after the agent resumes; a target=_blank link and window.open to it open no page there and the popup
 * is closed; the home site is untouched.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePolicySites, type PolicySites } from '../policy-sites';
import { until } from '../wait';
import type { CliError } from '../cli';
import type { DriverUnderTest, SuiteEnv } from '../agent';

const T = 60_000;

interface Listed {
  session: string;
  state: string;
  pauseReason?: string;
}

export function definePolicySuite(driver: DriverUnderTest): void {
  describe(`the site policy on ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    let sites: PolicySites | undefined;
    const e = (): { env: SuiteEnv; sites: PolicySites } => {
      if (!env || !sites) throw new Error(`${driver.label} did not start`);
      return { env, sites };
    };
    const session = async (): Promise<string> => {
      const { env: x, sites: s } = e();
      const created = await x.cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
      await x.cli.ok(['tab', 'open', '-s', created.session, s.start, '--browser', x.browser]);
      return created.session;
    };
    const listed = async (s: string): Promise<Listed | undefined> => {
      const r = await e().env.cli.ok<{ sessions: Listed[] }>(['session', 'list', '-s', s]);
      return r.sessions.find((x) => x.session === s);
    };
    const expectDenied = (error: CliError): void => {
      expect(error.code, error.message).toBe('POLICY_DENIED');
      expect(error.message).toContain(e().sites.deniedOrigin);
      expect(error.message).toContain('denied by rule');
    };
    /** The session paused by the policy, then resumed by the agent: the page is still out of reach. */
    const pausedThere = async (s: string): Promise<void> => {
      const { env: x, sites: f } = e();
      const paused = await until('the session to pause on the denied origin', async () => {
        const l = await listed(s);
        if (l?.state === 'paused') return l;
        throw new Error(`session is ${l?.state}`);
      });
      expect(paused.pauseReason).toContain(`${f.deniedOrigin} is denied`);
      expect(await x.cli.failCode(['text', '-s', s])).toBe('HUMAN_REQUIRED');
      await x.cli.ok(['session', 'resume', '-s', s]);
    };

    beforeAll(async () => {
      env = await driver.start();
      sites = await servePolicySites();
      const policy = { version: 1, default: 'allow', origins: { [sites.deniedOrigin]: { rule: 'deny' } } };
      const file = join(env.cli.home, 'policy.json');
      writeFileSync(file, JSON.stringify(policy), { mode: 0o600 });
      chmodSync(file, 0o600);
    }, 120_000);
    afterAll(async () => {
      await sites?.close();
    });

    it(
      'refuses a navigate to the denied origin before the browser asks for it, and leaves the home site alone',
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        expectDenied(await x.cli.fail(['navigate', '-s', s, `${f.deniedOrigin}/typed.html`]));
        expectDenied(await x.cli.fail(['tab', 'open', '-s', s, `${f.deniedOrigin}/typed.html`]));
        expect(f.served('/typed.html')).toBe(0);
        const went = await x.cli.ok<{ url: string }>(['navigate', '-s', s, f.other]);
        expect(went.url).toBe(f.other);
        expect((await x.cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Another page');
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'stops a link to the denied origin before it is requested, answers POLICY_DENIED, pauses, and reads nothing there after a resume',
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        expectDenied(await x.cli.fail(['click', '-s', s, '--selector', '#away']));
        await pausedThere(s);
        expect(f.served('/link.html')).toBe(0);
        expectDenied(await x.cli.fail(['text', '-s', s]));
        expectDenied(await x.cli.fail(['snapshot', '-s', s]));
        // Leaving is allowed: back home, the session works again.
        await x.cli.ok(['navigate', '-s', s, f.start]);
        expect((await x.cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Other page');
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'stops a 302 to the denied origin before its target is requested, with POLICY_DENIED for the navigate that followed it',
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        expectDenied(await x.cli.fail(['navigate', '-s', s, f.redirect]));
        await pausedThere(s);
        expect(f.served('/redirected.html')).toBe(0);
        expectDenied(await x.cli.fail(['text', '-s', s]));
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      "stops a page's script sending the tab to the denied origin before it is requested, and pauses the session",
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        // The script runs as the page loads: told during the navigate (refused) or just after (paused).
        const went = await x.cli.run(['navigate', '-s', s, f.scripted]);
        if (went.code !== 0) expectDenied((went.json as { error: CliError }).error);
        await pausedThere(s);
        expect(f.served('/scripted.html')).toBe(0);
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    for (const [how, selector, path] of [
      ['a target=_blank link', '#blank', '/blank.html'],
      ['window.open', '#popup', '/popup.html'],
    ] as const) {
      it(
        `closes the tab ${how} opens on the denied origin before it is requested, and pauses the session`,
        async () => {
          const { env: x, sites: f } = e();
          const s = await session();
          const clicked = await x.cli.run(['click', '-s', s, '--selector', selector]);
          // The popup's stop may be told before or after the click's answer: refused, or paused right after.
          if (clicked.code !== 0) expectDenied((clicked.json as { error: CliError }).error);
          await pausedThere(s);
          expect(f.served(path)).toBe(0);
          const tabs = await until('the popup to be closed', async () => {
            const listed = await x.cli.ok<{ tabs: { tab: string; url: string }[] }>(['tab', 'list', '-s', s]);
            if (listed.tabs.length === 1) return listed.tabs;
            throw new Error(JSON.stringify(listed.tabs));
          });
          expect(tabs[0]?.url).toBe(f.start);
          expect((await x.cli.ok<{ text: string }>(['text', '-s', s])).text).toContain('Bank in a new tab');
          await x.cli.ok(['session', 'close', '-s', s]);
        },
        T,
      );
    }
  });
}
