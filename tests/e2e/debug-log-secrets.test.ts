/**
 * The daemon's debug log against a real page: a real daemon at BPROXY_LOG_LEVEL=debug with its
 * embedded headless Chromium, driven by the real CLI. What the agent fills, types and answers a prompt
 * with comes back to the agent in later reads (inspect, elements, snapshot), and the log takes every
 * request and answer — with those values redacted, so the log file never holds them.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { Cli } from '../kit/cli';

let pages: FixtureServer | undefined;
let cli: Cli | undefined;

afterAll(async () => {
  await cli?.dispose();
  await pages?.close();
}, 60_000);

function logText(home: string): string {
  const dir = join(home, 'logs');
  return readdirSync(dir)
    .map((file) => readFileSync(join(dir, file), 'utf8'))
    .join('');
}

describe('the debug log of a real daemon', () => {
  it('never holds what the agent filled, typed or answered a prompt with, though its reads return it', async () => {
    pages = await serveFixtures();
    cli = new Cli('bproxy-e2e-debug-log-');
    cli.setEnv({ BPROXY_LOG_LEVEL: 'debug' });
    await cli.start(['--browser', 'headless']);
    const filled = `filled${randomBytes(6).toString('hex')}`;
    const typed = `typed${randomBytes(6).toString('hex')}`;
    const answered = `answered${randomBytes(6).toString('hex')}`;

    const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
    await cli.ok(['tab', 'open', '-s', session, pages.url('forms.html'), '--browser', 'headless']);
    await cli.ok(['fill', '-s', session, '--selector', '#name', filled]);
    await cli.ok(['type', '-s', session, typed, '--selector', '#q']);

    // The agent's answers are untouched: its reads give the values back.
    const inspected = await cli.ok<{ value?: string }>(['inspect', '-s', session, '--selector', '#name']);
    expect(inspected.value).toBe(filled);
    const elements = await cli.ok<{ elements: { value?: string }[] }>(['elements', '-s', session]);
    expect(elements.elements.map((e) => e.value)).toEqual(expect.arrayContaining([filled, typed]));
    const snapshot = await cli.ok<{ snapshot: string }>(['snapshot', '-s', session]);
    expect(snapshot.snapshot).toContain(`value="${filled}"`);
    expect(snapshot.snapshot).toContain(`value="${typed}"`);

    await cli.ok(['navigate', '-s', session, pages.url('dialog.html')]);
    const click = await cli.ok<{ dialog?: { type: string } }>([
      'click',
      '-s',
      session,
      '--selector',
      '#prompt',
    ]);
    expect(click.dialog?.type).toBe('prompt');
    expect(await cli.ok(['dialog', '-s', session, 'accept', '--text', answered])).toMatchObject({
      type: 'prompt',
      accepted: true,
    });

    // Stopping the daemon flushes its log.
    await cli.stop();
    const log = logText(cli.home);
    for (const secret of [filled, typed, answered]) expect(log).not.toContain(secret);
    const payloads = log.split('\n').filter((line) => line.includes('_payload"'));
    for (const action of ['fill', 'type', 'inspect', 'elements', 'snapshot', 'dialog'])
      expect(payloads.some((line) => line.includes(`"action":"${action}"`))).toBe(true);
    // The answers were logged too, with what they carry beside the values.
    const answers = payloads.filter((line) => line.includes('"event":"response_payload"'));
    expect(answers.some((line) => line.includes('textbox') && line.includes('value=[redacted]'))).toBe(true);
    expect(answers.some((line) => line.includes('"value":"[redacted]"'))).toBe(true);
  }, 120_000);
});
