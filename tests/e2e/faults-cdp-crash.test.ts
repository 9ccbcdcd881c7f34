/**
 * The embedded headless Chromium that the daemon launched crashes (SIGKILL) while a request is in
 * flight: the agent gets exactly one answer, nothing is left pending, the session's tab is reported
 * gone rather than hanging, and the next tab.open launches a fresh browser that works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cli, type StartOutput } from '../kit/cli';
import { chromiumPath } from '../kit/chromium';
import { serveFixtures, type FixtureServer } from '../kit/pages';
import { until } from '../kit/wait';
import { childProcesses, isAlive } from '../kit/processes';

process.env.CHROME_PATH ??= chromiumPath();
process.env.BPROXY_BROWSER = 'headless';

let cli: Cli;
let pages: FixtureServer;
let started: StartOutput;

async function fastSessionOn(url: string): Promise<string> {
  const { session } = await cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']);
  await cli.ok(['tab', 'open', '-s', session, '--url', url], 60_000);
  return session;
}

beforeAll(async () => {
  pages = await serveFixtures();
  cli = new Cli();
  started = await cli.start();
}, 60_000);

afterAll(async () => {
  await cli?.dispose();
  await pages?.close();
});

describe('launched browser crash', () => {
  it('answers the request in flight once and relaunches on the next tab.open', async () => {
    const session = await fastSessionOn(pages.url('ext-done.html'));
    const browsers = childProcesses(started.pid, /chrom/i);
    expect(browsers.length).toBeGreaterThan(0);
    const wait = cli.run(
      ['wait', '-s', session, '--text', 'never on this page', '--timeout-ms', '30000'],
      45_000,
    );
    await until(
      'the wait to be in flight',
      async () => (await cli.ok<{ pending: number }>(['debug', 'status'])).pending === 1,
    );
    for (const pid of browsers) process.kill(pid, 'SIGKILL');
    const result = await wait;
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // Said as what happened — the browser went away — not left to run into its deadline.
    expect(JSON.parse(result.stderr)).toMatchObject({ ok: false, error: { code: 'BROWSER_DISCONNECTED' } });
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(
      await until(
        'nothing pending',
        async () => (await cli.ok<{ pending: number }>(['debug', 'status'])).pending === 0,
      ),
    ).toBe(true);
    for (const pid of browsers) await until(`browser ${pid} to be reaped`, () => !isAlive(pid));

    // The crashed browser's tab is gone for good: an error, not a hang.
    const stale = await cli.run(['text', '-s', session], 30_000);
    expect(stale.code).toBe(1);
    const fresh = await fastSessionOn(pages.url('ext-done.html'));
    expect((await cli.ok<{ text: string }>(['text', '-s', fresh])).text).toContain('Done');
    expect(childProcesses(started.pid, /chrom/i).length).toBeGreaterThan(0);
  }, 90_000);
});
