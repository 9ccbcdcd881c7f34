/**
 * `fill --secret NAME` in the daemon: the value looked up in the user's store goes to the driver with
 * the origin it may only go to, and never comes back — every answer after it masks the value (a text
 * field a snapshot reads, an error that quotes it), so do the activity feed's entries and the debug log;
 * a refusal for another origin shows in the activity feed; an unknown name and an unreadable store
 * have their own codes and forward nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '@bproxy/protocol';
import { okData, startDaemonWithTab, until } from '../harness';
import type { SecretReader } from '../../src/actions/secret-fill';

const VALUE = 'pw-Zq81!x';
const ORIGIN = 'https://bank.example';
const reader: SecretReader = (name) => (name === 'bank' ? { origin: ORIGIN, value: VALUE } : null);

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function withTab(secrets: SecretReader = reader) {
  const t = await startDaemonWithTab({ secrets });
  close = t.close;
  okData(await t.daemon.call('elements', {}, t.session));
  return t;
}

describe('fill --secret in the daemon', () => {
  it('hands the driver the value and its origin, answers without it, and masks it in every later answer, the feed and the log', async () => {
    const { daemon, ext, session } = await withTab();
    const filled = await daemon.call('fill', { target: 'el2', secret: 'bank' }, session);
    expect(filled.ok).toBe(true);
    const forwarded = ext.received.find((r) => r.action === 'fill');
    expect(forwarded?.params).toMatchObject({ value: VALUE, secretOrigin: ORIGIN });
    expect(forwarded?.params).not.toHaveProperty('secret');

    // The page echoes the value (a text field's value in a snapshot, an error): the agent sees the mask.
    ext.behaviour = (req) =>
      req.action === 'text'
        ? {
            ok: true,
            data: {
              url: 'http://x/',
              title: 'Page',
              text: `Password ${VALUE}`,
              totalChars: 9,
              truncated: false,
            },
          }
        : req.action === 'click'
          ? {
              ok: false,
              error: {
                code: 'ELEMENT_NOT_INTERACTABLE',
                category: 'page',
                retry: true,
                message: `covered by ${VALUE}`,
              },
            }
          : ext.defaultAnswer(req);
    const text = await daemon.call('text', {}, session);
    expect(JSON.stringify(text)).not.toContain(VALUE);
    expect(text).toMatchObject({ ok: true, data: { text: `Password ${SECRET_MASK}` } });
    const click = await daemon.call('click', { target: 'el1' }, session);
    expect(JSON.stringify(click)).not.toContain(VALUE);
    await until(
      () => ext.messages.some((m) => m.type === 'activity' && m.entry.action === 'click'),
      'the click entry',
    );
    const feed = ext.messages.filter((m) => m.type === 'activity');
    expect(feed.length).toBeGreaterThan(2);
    expect(JSON.stringify(feed)).not.toContain(VALUE);
    expect(daemon.logLines.some((l) => l.includes('"action":"fill"'))).toBe(true);
    expect(daemon.logLines.join('\n')).not.toContain(VALUE);
  });

  it('shows a fill refused for another origin in the activity feed, its code and without the value', async () => {
    const { daemon, ext, session } = await withTab();
    ext.behaviour = (req) =>
      req.action === 'fill'
        ? {
            ok: false,
            error: {
              code: 'SECRET_ORIGIN_MISMATCH',
              category: 'policy',
              retry: false,
              message: `refusing to fill a secret into input: its frame is https://bank.example.evil.test, the secret is for ${ORIGIN}`,
            },
          }
        : ext.defaultAnswer(req);
    const refused = await daemon.call('fill', { target: 'el2', secret: 'bank' }, session);
    expect(refused).toMatchObject({ ok: false, error: { code: 'SECRET_ORIGIN_MISMATCH' } });
    await until(
      () =>
        ext.messages.some((m) => m.type === 'activity' && m.entry.error?.code === 'SECRET_ORIGIN_MISMATCH'),
      'the refusal in the feed',
    );
    const entry = ext.messages.find((m) => m.type === 'activity' && m.entry.action === 'fill');
    expect(entry).toMatchObject({
      entry: { action: 'fill', target: { ref: 'el2' }, error: { code: 'SECRET_ORIGIN_MISMATCH' } },
    });
    expect(JSON.stringify(ext.messages)).not.toContain(VALUE);
  });

  it('answers SECRET_NOT_FOUND for an unknown name and SECRET_STORE_UNREADABLE for a store it cannot read, forwarding nothing', async () => {
    const { daemon, ext, session } = await withTab((name) => {
      if (name === 'broken') throw new Error('secret broken did not verify');
      return null;
    });
    const unknown = await daemon.call('fill', { target: 'el2', secret: 'nope' }, session);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'SECRET_NOT_FOUND' } });
    const broken = await daemon.call('fill', { target: 'el2', secret: 'broken' }, session);
    expect(broken).toMatchObject({ ok: false, error: { code: 'SECRET_STORE_UNREADABLE' } });
    expect(ext.received.some((r) => r.action === 'fill')).toBe(false);
  });

  it('takes a value or a secret, exactly one', async () => {
    const { daemon, session } = await withTab();
    for (const params of [{ target: 'el2' }, { target: 'el2', value: 'x', secret: 'bank' }]) {
      const answer = await daemon.call('fill', params, session);
      expect(answer).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    }
  });
});
