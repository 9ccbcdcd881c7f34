/**
 * The site policy, the same on every driver: with the second site denied in BPROXY_HOME/policy.json
 * (written by hand while the daemon runs, as a person would), a navigate there is refused before the
 * browser asks for it; a link, a target=_blank link, window.open and a 302 that take a session's tab
 * there pause the session with the reason, the action answers POLICY_DENIED, and nothing runs on that
 * page even after the agent resumes; the home site is untouched.
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
      'pauses the session where a link took its tab, answers POLICY_DENIED, and reads nothing there after a resume',
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        expectDenied(await x.cli.fail(['click', '-s', s, '--selector', '#away']));
        await pausedThere(s);
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
      'pauses the session where a redirect took its tab, with POLICY_DENIED for the navigate that followed it',
      async () => {
        const { env: x, sites: f } = e();
        const s = await session();
        expectDenied(await x.cli.fail(['navigate', '-s', s, f.redirect]));
        await pausedThere(s);
        expectDenied(await x.cli.fail(['text', '-s', s]));
        await x.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    for (const [how, selector, path] of [
      ['a target=_blank link', '#blank', '/blank.html'],
      ['window.open', '#popup', '/popup.html'],
    ] as const) {
      it(
        `pauses the session when ${how} opens a tab on the denied origin, and nothing runs in that tab`,
        async () => {
          const { env: x, sites: f } = e();
          const s = await session();
          const clicked = await x.cli.run(['click', '-s', s, '--selector', selector]);
          // The popup's navigation may be told before or after the click's answer: refused, or paused right after.
          if (clicked.code !== 0) expectDenied((clicked.json as { error: CliError }).error);
          await pausedThere(s);
          const tabs = await x.cli.ok<{ tabs: { tab: string; url: string }[] }>(['tab', 'list', '-s', s]);
          const popup = tabs.tabs.find((t) => t.url.startsWith(f.deniedOrigin));
          expect(popup, JSON.stringify(tabs)).toBeDefined();
          expect(f.served(path)).toBeGreaterThan(0);
          if (!popup) return;
          await x.cli.ok(['session', 'bind', '-s', s, '--tab', popup.tab]);
          expectDenied(await x.cli.fail(['text', '-s', s]));
          await x.cli.ok(['session', 'close', '-s', s]);
        },
        T,
      );
    }
  });
}
