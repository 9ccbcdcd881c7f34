/**
 * Approvals, the same on every driver: with the submit, send and delete classes set to "ask" in
 * BPROXY_HOME/policy.json (set here, so that the suite does not depend on the built-in defaults), a
 * checkout's Place order (card fields, autocomplete cc-*), Enter pressed in its card field, a composer's
 * Send and a dialog's Delete are each held with APPROVAL_REQUIRED and never reach the page; the
 * look-alikes (a coupon form's button, a "Send feedback" link, Subscribe in prose, a "Deleted files"
 * filter, Save draft, Keep it) run at once. A person decides in the side panel of the extension paired
 * to the same daemon (its page opened as a tab: side panels do not render headless) — which shows the
 * action, the element's name, the origin and the form's fields with the card's values masked, and whose
 * toolbar badge says a decision waits —, and the agent's retry then runs exactly once (the page counts
 * what ran); Deny is told to the retry; "Always on this site" is written to policy.json and obeyed.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../wait';
import type { CliError } from '../cli';
import type { DriverUnderTest, SuiteEnv } from '../agent';

const T = 60_000;

export interface ApprovalsDriver extends DriverUnderTest {
  /** The person's side: the side panel page of the extension paired to the same daemon. */
  panel(): Promise<Page>;
  /** The toolbar badge's text of that extension. */
  badge(): Promise<string>;
  /** The badge with no decision waiting, while `sessions` sessions of this suite are open. */
  badgeWith(sessions: number): string;
}

interface Held extends CliError {
  details?: { approval?: string; class?: string; origin?: string; name?: string };
}

/** The policy the suite runs under: every site allowed; pay or submit, send and delete ask. */
export const ASKING_POLICY = {
  version: 1,
  default: 'allow',
  origins: {},
  classes: { submit: 'ask', send: 'ask', delete: 'ask' },
};

export function writePolicy(home: string, policy: object): void {
  const file = join(home, 'policy.json');
  writeFileSync(file, JSON.stringify(policy), { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function defineApprovalsSuite(driver: ApprovalsDriver): void {
  describe(`approvals on ${driver.label}`, () => {
    let env: SuiteEnv | undefined;
    let panel: Page | undefined;
    const x = (): { env: SuiteEnv; panel: Page } => {
      if (!env || !panel) throw new Error(`${driver.label} did not start`);
      return { env, panel };
    };
    const session = async (page: string): Promise<string> => {
      const created = await x().env.cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
      await x().env.cli.ok([
        'tab',
        'open',
        '-s',
        created.session,
        x().env.pages.url(page),
        '--browser',
        x().env.browser,
      ]);
      return created.session;
    };
    const text = async (s: string): Promise<string> =>
      (await x().env.cli.ok<{ text: string }>(['text', '-s', s])).text;
    /** An action that must be held: its APPROVAL_REQUIRED error, with the approval's id. */
    const held = async (args: string[]): Promise<Held & { id: string }> => {
      const error = (await x().env.cli.fail(args)) as Held;
      expect(error.code, error.message).toBe('APPROVAL_REQUIRED');
      const id = error.details?.approval;
      if (id === undefined) throw new Error(`no approval id in ${JSON.stringify(error)}`);
      return { ...error, id };
    };
    /** The card the panel shows for an approval, once it shows (its text). */
    const card = async (id: string): Promise<string> => {
      const selector = `#approvals li[data-approval="${id}"]`;
      await until(`approval ${id} in the panel`, async () => (await x().panel.$(selector)) ?? undefined);
      expect(await x().panel.isVisible('#approvals')).toBe(true);
      return (await x().panel.textContent(selector)) ?? '';
    };
    const decide = async (id: string, label: string): Promise<void> => {
      await x().panel.click(`#approvals li[data-approval="${id}"] button:text-is("${label}")`);
      await until(
        `approval ${id} to leave the panel`,
        async () => (await x().panel.$(`#approvals li[data-approval="${id}"]`)) === null || undefined,
      );
    };

    beforeAll(async () => {
      env = await driver.start();
      writePolicy(env.cli.home, ASKING_POLICY);
      panel = await driver.panel();
    }, 120_000);

    it(
      'holds Place order on a checkout with card fields, shows it with the card masked, and runs it once after Allow once',
      async () => {
        const { env: e } = x();
        const s = await session('approvals-checkout.html');
        await e.cli.ok(['fill', '-s', s, '--selector', '#card', '4242424242424242']);
        await e.cli.ok(['fill', '-s', s, '--selector', 'input[name=cardname]', 'Sam Doe']);
        const click = ['click', '-s', s, '--selector', '#pay button'];
        const asked = await held(click);
        expect(asked.details).toMatchObject({ class: 'submit', name: 'Place order', origin: e.pages.origin });
        expect(await text(s)).toContain('Orders placed: 0');
        // The same action asked again is the same approval, not a second one.
        expect((await held(click)).id).toBe(asked.id);

        const shown = await card(asked.id);
        expect(shown).toContain('Pay or submit');
        expect(shown).toContain('Click “Place order”');
        expect(shown).toContain(e.pages.origin);
        expect(shown).toContain('Sam Doe');
        expect(shown).toContain('••••');
        expect(shown).not.toContain('4242');
        await until(
          'the badge to say a decision waits',
          async () => (await driver.badge()) === '1?' || undefined,
        );

        await decide(asked.id, 'Allow once');
        await until(
          'the badge back as it was',
          async () => (await driver.badge()) === driver.badgeWith(1) || undefined,
        );
        await e.cli.ok(click);
        expect(await text(s)).toContain('Orders placed: 1');
        // Exactly once: the next click asks again, and Deny is what its retry hears.
        const again = await held(click);
        expect(again.id).not.toBe(asked.id);
        await card(again.id);
        await decide(again.id, 'Deny');
        const denied = await held(click);
        expect(denied.message).toContain('a person denied');
        expect(await text(s)).toContain('Orders placed: 1');
        await e.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'recognises Enter pressed with no target in the card field (the focused element), and not in the coupon field',
      async () => {
        const { env: e } = x();
        const s = await session('approvals-checkout.html');
        // The coupon form has no card fields and an unremarkable button: Enter there runs at once.
        await e.cli.ok(['click', '-s', s, '--selector', 'input[name=coupon]']);
        await e.cli.ok(['press', '-s', s, 'Enter']);
        expect(await text(s)).toContain('Coupons applied: 1');
        await e.cli.ok(['click', '-s', s, '--selector', '#coupon button']);
        expect(await text(s)).toContain('Coupons applied: 2');

        await e.cli.ok(['click', '-s', s, '--selector', '#card']);
        const asked = await held(['press', '-s', s, 'Enter']);
        expect(asked.details).toMatchObject({ class: 'submit', name: 'Place order' });
        expect(await card(asked.id)).toContain('Press Enter in “Place order”');
        await decide(asked.id, 'Deny');
        expect((await held(['press', '-s', s, 'Enter'])).message).toContain('a person denied');
        expect(await text(s)).toContain('Orders placed: 0');
        // Subscribe in prose is no control: reading and clicking it asks nothing.
        await e.cli.ok(['click', '-s', s, '--selector', 'p:first-of-type']);
        await e.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'holds Send in a message composer; Always on this site writes the policy and later sends run at once; Send feedback and Save draft never ask',
      async () => {
        const { env: e } = x();
        const s = await session('approvals-composer.html');
        await e.cli.ok(['click', '-s', s, '--selector', '#draft']);
        await e.cli.ok(['click', '-s', s, '--selector', '#feedback-link']);
        expect(await text(s)).toContain('Drafts saved: 1');

        const send = ['click', '-s', s, '--selector', '#compose button[type=submit]'];
        const asked = await held(send);
        expect(asked.details).toMatchObject({ class: 'send', name: 'Send' });
        const shown = await card(asked.id);
        expect(shown).toContain('Send');
        expect(shown).toContain('sam@example.com');
        expect(shown).toContain('See you at noon');
        expect(await text(s)).toContain('Messages sent: 0');

        await decide(asked.id, 'Always on this site');
        const policy = JSON.parse(readFileSync(join(e.cli.home, 'policy.json'), 'utf8')) as {
          origins: Record<string, { classes?: Record<string, string> }>;
        };
        expect(policy.origins[e.pages.origin]?.classes?.send).toBe('allow');
        await e.cli.ok(send);
        expect(await text(s)).toContain('Messages sent: 1');
        // From now on this site's sends are the person's standing decision: no question.
        await e.cli.ok(send);
        expect(await text(s)).toContain('Messages sent: 2');
        await e.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'holds Delete in a confirmation dialog until a person decides; the "Deleted files" filter and Keep it run at once',
      async () => {
        const { env: e } = x();
        const s = await session('approvals-delete.html');
        await e.cli.ok(['click', '-s', s, '--selector', '#show-deleted']);
        expect(await text(s)).toContain('Filter on: yes');
        await e.cli.ok(['click', '-s', s, '--selector', '#keep']);

        const del = ['click', '-s', s, '--selector', '#delete'];
        const asked = await held(del);
        expect(asked.details).toMatchObject({ class: 'delete', name: 'Delete' });
        expect(await card(asked.id)).toContain('Delete: Click “Delete”');
        expect(await text(s)).toContain('Files deleted: 0');
        await decide(asked.id, 'Allow once');
        await e.cli.ok(del);
        expect(await text(s)).toContain('Files deleted: 1');
        await e.cli.ok(['session', 'close', '-s', s]);
      },
      T,
    );

    it(
      'takes an approval off the panel when its session closes, and the badge back',
      async () => {
        const { env: e } = x();
        const s = await session('approvals-delete.html');
        const asked = await held(['click', '-s', s, '--selector', '#delete']);
        await card(asked.id);
        await e.cli.ok(['session', 'close', '-s', s]);
        await until(
          'the approval to leave the panel',
          async () => (await x().panel.$(`#approvals li[data-approval="${asked.id}"]`)) === null || undefined,
        );
        expect(await x().panel.isHidden('#approvals')).toBe(true);
        await until(
          'the badge back as it was',
          async () => (await driver.badge()) === driver.badgeWith(0) || undefined,
        );
      },
      T,
    );

    afterAll(async () => {
      await panel?.close();
    });
  });
}
