/**
 * The page's half of fill --secret: the value goes only into a field of the secret's origin, checked
 * in the page before anything is written, and no later answer of the page script shows it (a text
 * field's value in a snapshot, elements, inspect) — masked in the page itself, before any driver or
 * storage sees the answer.
 */
import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '@bproxy/protocol';
import { fails, ok, open, usePageFixtures } from '../harness';

const env = usePageFixtures();
const VALUE = 'p4ss-W0rd-xyz';

describe('fill with a secret in the page', () => {
  it('fills a field of the secret’s origin, and no later answer of the page shows the value', async () => {
    const page = await open(env.browser.context, `${env.server.origin}/forms.html`);
    await ok(page, 'fill', { target: { selector: '#name' }, value: VALUE, secretOrigin: env.server.origin });
    expect(await page.inputValue('#name')).toBe(VALUE);
    for (const [action, params] of [
      ['snapshot', {}],
      ['elements', {}],
      ['inspect', { target: { selector: '#name' } }],
    ] as const) {
      const answer = JSON.stringify(await ok(page, action, params));
      expect(answer, action).not.toContain(VALUE);
    }
    expect(JSON.stringify(await ok(page, 'inspect', { target: { selector: '#name' } }))).toContain(
      SECRET_MASK,
    );
    await page.close();
  });

  it('refuses a field of another origin before writing anything', async () => {
    const page = await open(env.browser.context, `${env.server.origin}/forms.html`);
    const other = env.server.origin.replace(/:(\d+)$/, (_m, port: string) => `:${Number(port) + 1}`);
    const error = await fails(page, 'fill', {
      target: { selector: '#name' },
      value: VALUE,
      secretOrigin: other,
    });
    expect(error.code).toBe('SECRET_ORIGIN_MISMATCH');
    expect(error.message).toContain(env.server.origin);
    expect(error.message).not.toContain(VALUE);
    expect(await page.inputValue('#name')).toBe('');
    await page.close();
  });
});
