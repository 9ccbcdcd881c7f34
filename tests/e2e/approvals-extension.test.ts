/**
 * The approvals suite (tests/kit/suites/approvals.ts) on the extension driver: the real daemon and
 * CLI, headless Chromium with the built extension paired through its popup; the person decides in that
 * extension's own side panel. Then the Activity feed's words for a held action.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { badgeText, openPanel } from '../kit/approvals-person';
import { pairedExtension } from '../kit/extension-driver';
import { ASKING_POLICY, defineApprovalsSuite, writePolicy } from '../kit/suites/approvals';
import { until } from '../kit/wait';
import type { ExtensionBrowser } from '../kit/extension';

const paired = pairedExtension('bproxy-e2e-approvals-ext-');

afterAll(() => paired.close(), 60_000);

const browser = (): ExtensionBrowser => {
  const b = paired.browser();
  if (!b) throw new Error('no browser');
  return b;
};

defineApprovalsSuite({
  label: 'the extension driver',
  start: paired.start,
  panel: () => openPanel(browser()),
  badge: () => badgeText(browser()),
  badgeWith: (sessions) => (sessions === 0 ? '' : String(sessions)),
});

describe('approvals in the Activity feed', () => {
  it('says in words that an agent asks first, and that the person denied it', async () => {
    const env = await paired.start();
    writePolicy(env.cli.home, ASKING_POLICY);
    const created = await env.cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    const s = created.session;
    await env.cli.ok([
      'tab',
      'open',
      '-s',
      s,
      env.pages.url('approvals-delete.html'),
      '--browser',
      env.browser,
    ]);
    const panel = await openPanel(browser());
    await panel.check('#all-tabs');
    const error = await env.cli.fail(['click', '-s', s, '--selector', '#delete']);
    expect(error.code).toBe('APPROVAL_REQUIRED');
    const feed = async (): Promise<string> => (await panel.textContent('#feed')) ?? '';
    await until(
      'the feed to say the agent asks first',
      async () => (await feed()).includes('CLI asks you first: click on') || undefined,
    );
    expect(await feed()).toContain('Not run until you decide');
    await panel.click('#approvals button:text-is("Deny")');
    expect((await env.cli.fail(['click', '-s', s, '--selector', '#delete'])).code).toBe('APPROVAL_REQUIRED');
    await until(
      'the feed to say the person denied it',
      async () => (await feed()).includes('You denied: click on') || undefined,
    );
    await env.cli.ok(['session', 'close', '-s', s]);
    await panel.close();
  }, 60_000);
});
