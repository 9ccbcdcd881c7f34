/**
 * The chat's settings in the real side panel are kept current: after `bproxy agent config` changes
 * the provider and models, the open panel shows them without a reload; a model name the person is
 * typing is left as typed while the rest follows; and saving a field whose value changed elsewhere
 * since it was shown is refused (nothing saved, the current settings shown), while a field changed
 * only here saves without touching the others.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevtoolsTarget } from '../kit/devtools-target';
import { launchHeaded, type HeadedMachine } from '../kit/headed';
import { until } from '../kit/wait';

let machine: HeadedMachine;

beforeAll(async () => {
  machine = await launchHeaded('bproxy-headed-settings-');
  await machine.connected();
}, 120_000);

afterAll(async () => {
  await machine?.close();
}, 60_000);

const value = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)}).value`);
const text = (panel: DevtoolsTarget, id: string): Promise<string> =>
  panel.evaluate<string>(`document.getElementById(${JSON.stringify(id)})?.textContent ?? ''`);
/** The models saved in BPROXY_HOME/agent/config.json. */
const saved = (): { fast?: string; strong?: string } =>
  (
    JSON.parse(readFileSync(join(machine.cli.home, 'agent', 'config.json'), 'utf8')) as {
      models: { fast?: string; strong?: string };
    }
  ).models;
const config = (...args: string[]) =>
  machine.cli.ok(['agent', 'config', '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', ...args]);

describe('the chat’s settings in the real side panel', () => {
  it('follow bproxy agent config without a reload, and a stale field never overwrites a newer one', async () => {
    const { target: panel } = await machine.openSidePanel();
    await panel.click('#tab-chat');
    await panel.click('#chat-settings > summary');
    await until('the settings read', async () => (await text(panel, 'chat-provider')) === 'not configured');

    await config('--fast', 'alpha-fast', '--strong', 'alpha-strong');
    await until(
      'the new provider and models, no reload',
      async () =>
        (await text(panel, 'chat-provider')) === 'openai' &&
        (await value(panel, 'chat-fast')) === 'alpha-fast',
    );
    expect(await value(panel, 'chat-strong')).toBe('alpha-strong');

    // The person types a strong model; meanwhile the CLI changes both.
    await panel.click('#chat-strong');
    await panel.evaluate("document.getElementById('chat-strong').select()");
    await panel.type('mine-strong');
    await config('--fast', 'beta-fast', '--strong', 'beta-strong');
    await until('the fast model follows', async () => (await value(panel, 'chat-fast')) === 'beta-fast');
    expect(await value(panel, 'chat-strong')).toBe('mine-strong');
    await panel.click('#chat-settings-form button[type=submit]');
    await until('the save refused', async () =>
      (await text(panel, 'chat-settings-message')).startsWith('Not saved'),
    );
    expect(saved()).toEqual({ fast: 'beta-fast', strong: 'beta-strong' });
    expect(await value(panel, 'chat-strong')).toBe('beta-strong');

    // A field changed only here saves, and leaves the others as they are.
    await panel.click('#chat-fast');
    await panel.evaluate("document.getElementById('chat-fast').select()");
    await panel.type('mine-fast');
    await panel.click('#chat-settings-form button[type=submit]');
    await until('saved', async () => (await text(panel, 'chat-settings-message')) === 'Saved.');
    expect(saved()).toEqual({ fast: 'mine-fast', strong: 'beta-strong' });
    panel.close();
  });
});
