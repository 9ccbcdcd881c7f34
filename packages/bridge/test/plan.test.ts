/**
 * Whose profile the bridge would launch on, decided from the tool's switches and the configuration,
 * and what of the tool's switches that lets through: the README's profile table, as code.
 */
import { describe, expect, it } from 'vitest';
import { parseToolArgs } from '../src/args/tool-args';
import { readBridgeConfig } from '../src/config';
import { makePlan } from '../src/plan';

const WISHES = [
  '--host-resolver-rules=MAP *.test 127.0.0.1',
  '--disable-popup-blocking',
  '--enable-features=WebMCP',
  '--remote-allow-origins=*',
  '--window-size=800,600',
];

async function plan(argv: string[], env: Record<string, string>) {
  const full = { BPROXY_HOME: '/tmp/bproxy-plan-test', BPROXY_BRIDGE_CHROME: '/usr/bin/chromium', ...env };
  return makePlan(parseToolArgs(['--remote-debugging-port=0', ...argv]), readBridgeConfig(full, false), full);
}

describe("the plan: whose profile, and the tool's switches that reach it", () => {
  it("launches on the tool's own profile with every switch Chrome takes but those opening its DevTools", async () => {
    const p = await plan([...WISHES, '--user-data-dir=/tmp/tool-profile'], {});
    expect(p).toMatchObject({ userDataDir: '/tmp/tool-profile', profileOwner: 'tool' });
    expect(p.forwardedArgs).toEqual(WISHES.filter((w) => !w.startsWith('--remote-allow-origins')));
    expect(p.droppedArgs).toEqual(['--remote-allow-origins=*']);
  });

  it.each([
    [
      'BPROXY_BRIDGE_USER_DATA_DIR, even when the tool names one',
      ['--user-data-dir=/tmp/tool-profile'],
      { BPROXY_BRIDGE_USER_DATA_DIR: '/tmp/mine' },
      '/tmp/mine',
    ],
    ['the default bridge profile', [], {}, '/tmp/bproxy-plan-test/bridge-profile'],
  ])("keeps to the allowlist on a profile of the user's: %s", async (_case, argv, env, profile) => {
    const p = await plan([...WISHES, ...argv], env);
    expect(p).toMatchObject({ userDataDir: profile, profileOwner: 'user' });
    expect(p.forwardedArgs).toEqual(['--window-size=800,600']);
    expect(p.droppedArgs).toEqual(WISHES.slice(0, -1));
  });

  it('passes nothing to a remote browser, which it only attaches to', async () => {
    const p = await plan([...WISHES, '--user-data-dir=/tmp/tool-profile'], {
      BPROXY_BRIDGE_CDP_URL: 'ws://127.0.0.1:9/devtools/browser/x',
    });
    expect(p).toMatchObject({ profileOwner: undefined, forwardedArgs: [] });
    expect(p.droppedArgs).toEqual(WISHES);
  });
});
