/**
 * The native host as a user meets it: `bproxy host install` registers it for Chromium in a user's
 * (temporary) home, `bproxy host status` says it starts and answers, and a browser with a fresh
 * profile and the extension loaded starts the host, which starts a daemon and pairs the extension with
 * it — no code typed, no port entered — after which the CLI drives a page in that browser.
 */
import { statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { launchWithNativeHost, type NativeMachine } from '../kit/native-host';
import { expectNoChromiumLeft } from '../kit/chromium';

let machine: NativeMachine;
let pages: FixtureServer;

beforeAll(async () => {
  pages = await serveFixtures();
  machine = await launchWithNativeHost();
}, 90_000);

afterAll(async () => {
  const dirs = [machine?.browser.userDataDir].filter((d): d is string => d !== undefined);
  await machine?.close();
  await pages?.close();
  await expectNoChromiumLeft(dirs);
}, 60_000);

describe('the native host in a real browser', () => {
  it('is registered for Chromium, with a launcher only its owner can change', async () => {
    const [entry] = machine.installed.registered;
    expect(entry?.browser).toBe('chromium');
    expect(entry?.location.startsWith(machine.root)).toBe(true);
    expect(statSync(machine.installed.launcher).mode & 0o022).toBe(0);
    const status = await machine.cli.ok<{
      browsers: { browser: string; registered: boolean; stale: boolean; answers: { ok: boolean } }[];
    }>(['host', 'status', '--browser', 'chromium']);
    expect(status.browsers).toEqual([
      expect.objectContaining({
        browser: 'chromium',
        registered: true,
        stale: false,
        problems: [],
        answers: expect.objectContaining({ ok: true }),
      }),
    ]);
  }, 30_000);

  it('pairs a fresh profile by itself and lets the CLI drive a page there', async () => {
    await machine.connected();
    const { cli } = machine;
    const opened = await cli.ok<{ session: string; tab: string }>([
      'tab',
      'open',
      pages.url('ext-form.html'),
    ]);
    await cli.ok(['session', 'bind', '-s', opened.session, '--pacing', 'fast']);
    const found = await cli.ok<{ elements: { handle: string; role: string }[] }>([
      'elements',
      '-s',
      opened.session,
    ]);
    const field = found.elements.find((e) => e.role === 'textbox');
    if (!field) throw new Error('no field on the form');
    await cli.ok(['fill', '-s', opened.session, field.handle, '--value', 'Grace']);
    const page = machine.browser.context.pages().find((p) => p.url() === pages.url('ext-form.html'));
    expect(await page?.inputValue('#name')).toBe('Grace');
    const status = await cli.ok<{ clients: { kind: string; connected: boolean }[] }>(['debug', 'status']);
    expect(status.clients).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'extension', connected: true })]),
    );
  }, 60_000);
});
