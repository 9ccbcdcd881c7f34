/**
 * The site-policy suite (tests/kit/suites/policy.ts) on the extension driver: the real daemon and CLI,
 * headless Chromium with the built extension paired through its popup. Then the side panel's Policy
 * view (its page opened as a tab: side panels do not render headless): a person's clicks there write
 * policy.json (0600) through the extension's user channel, and every agent obeys it at once.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pairedExtension } from '../kit/extension-driver';
import { PANEL_SIZE } from '../kit/screenshots';
import { definePolicySuite } from '../kit/suites/policy';
import { until } from '../kit/wait';

const paired = pairedExtension('bproxy-e2e-policy-ext-');

afterAll(() => paired.close(), 60_000);

definePolicySuite({ label: 'the extension driver', start: paired.start });

describe('the Policy view of the side panel', () => {
  it('adds, removes and resets rules by a person’s clicks, written 0600, obeyed by agents at once', async () => {
    const env = await paired.start();
    const browser = paired.browser();
    if (!browser) throw new Error('no browser');
    const file = join(env.cli.home, 'policy.json');
    const read = (): { default: string; origins: Record<string, { rule?: string }>; foreground?: string } =>
      JSON.parse(readFileSync(file, 'utf8')) as {
        default: string;
        origins: Record<string, { rule?: string }>;
        foreground?: string;
      };
    const panel = await browser.context.newPage();
    await panel.setViewportSize(PANEL_SIZE);
    await panel.goto(`chrome-extension://${browser.extensionId}/panel.html?tab=1`);
    await panel.click('#tab-policy');
    // The view shows the policy as the daemon holds it (its default, once read).
    await until(
      'the policy to show',
      async () => (await panel.inputValue('#policy-default')) !== '' || undefined,
    );

    const target = 'http://shop.example';
    // Before the rule: the tab opens (the host does not exist: an error page, not a refusal).
    const before = await env.cli.ok<{ session: string }>([
      'tab',
      'open',
      `${target}/`,
      '--browser',
      env.browser,
    ]);
    await env.cli.ok(['session', 'close', '-s', before.session]);
    await panel.fill('#policy-origin', `${target}/cart?x=1`);
    await panel.selectOption('#policy-rule', 'deny');
    await panel.click('#policy-add button[type=submit]');
    await until('policy.json to name the rule', () => read().origins[target]?.rule === 'deny' || undefined);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const refused = await env.cli.fail(['tab', 'open', `${target}/`, '--browser', env.browser]);
    expect(refused.code).toBe('POLICY_DENIED');
    expect(refused.message).toContain(`${target} is denied by rule ${target}`);
    // What it refused shows in the view when it is read again.
    await panel.click('#tab-activity');
    await panel.click('#tab-policy');
    await until(
      'the refusal to show',
      async () => ((await panel.textContent('#policy-refusals')) ?? '').includes(target) || undefined,
    );

    await panel.click(`#policy-rules li:has(code:text-is("${target}")) button`);
    await until('the rule to be gone', () => read().origins[target] === undefined || undefined);
    await panel.selectOption('#policy-default', 'deny');
    await until('the default to be deny', () => read().default === 'deny' || undefined);
    expect(
      (await env.cli.fail(['tab', 'open', 'http://other.example/', '--browser', env.browser])).code,
    ).toBe('POLICY_DENIED');
    // The front of the user's window: a person's click forbids it to agents (a blank tab: no origin to judge).
    expect(await panel.isChecked('#policy-foreground')).toBe(true);
    await panel.uncheck('#policy-foreground');
    await until('foreground to be denied', () => read().foreground === 'deny' || undefined);
    const front = await env.cli.fail(['tab', 'open', '--foreground', '--browser', env.browser]);
    expect(front.code).toBe('POLICY_DENIED');
    expect(front.message).toContain('"foreground": "deny"');
    await panel.click('#policy-reset');
    await until(
      'the defaults',
      () => (read().default === 'allow' && Object.keys(read().origins).length === 0) || undefined,
    );
    await panel.close();
  }, 60_000);
});
