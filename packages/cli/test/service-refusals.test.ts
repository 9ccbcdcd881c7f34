import { chmodSync, chownSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './helpers/cli-harness';

let h: Harness;
let busy: Server;
let busyPort = 0;
beforeAll(async () => {
  h = await createHarness();
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const address = busy.address();
  busyPort = typeof address === 'object' && address !== null ? address.port : 0;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  await h.cleanup();
});

const TOKEN = `${'0'.repeat(64)}\n`;

describe('service start refuses unsafe state and reports why', () => {
  const unsafeTokens: [string, (home: string) => void, RegExp][] = [
    [
      'readable by others (0644)',
      (home) => writeFileSync(join(home, 'token'), TOKEN, { mode: 0o644 }),
      /its mode is 0644, but group and others must have no access/,
    ],
    [
      'a symbolic link',
      (home) => {
        writeFileSync(join(home, 'elsewhere'), TOKEN, { mode: 0o600 });
        symlinkSync(join(home, 'elsewhere'), join(home, 'token'));
      },
      /it is a symbolic link/,
    ],
    [
      'owned by another user',
      (home) => {
        writeFileSync(join(home, 'token'), TOKEN, { mode: 0o600 });
        chownSync(join(home, 'token'), 65534, 65534);
      },
      /it is owned by uid 65534, not by you/,
    ],
  ];

  it.each(unsafeTokens)(
    'a token file %s: start fails closed with a plain message',
    async (_what, plant, message) => {
      const home = h.home();
      plant(home);
      const start = await h.run(['service', 'start'], { home });
      expect(start.code).toBe(1);
      expect(start.stdout).toBe('');
      expect(start.stderr).toMatch(/^bproxy: refusing to use .*token: /);
      expect(start.stderr).toMatch(message);
      // Nothing was left behind that would make the next reader believe a daemon runs.
      expect(existsSync(join(home, 'bproxy.pid'))).toBe(false);
      expect(existsSync(join(home, 'port'))).toBe(false);
      const status = await h.run(['service', 'status'], { home });
      expect(JSON.parse(status.stdout)).toMatchObject({ running: false });
    },
  );

  it('an unsafe token next to a stale lock is refused too, not swept away with the stale state', async () => {
    const home = h.home();
    writeFileSync(join(home, 'bproxy.pid'), '999999\n', { mode: 0o600 });
    writeFileSync(join(home, 'token'), TOKEN, { mode: 0o640 });
    const start = await h.run(['service', 'start'], { home });
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/refusing to use .*token: its mode is 0640/);
    expect(readFileSync(join(home, 'token'), 'utf8')).toBe(TOKEN);
  });

  it('an unsafe extension-token stops the start', async () => {
    const home = h.home();
    writeFileSync(join(home, 'extension-token'), 'x'.repeat(40), { mode: 0o600 });
    chmodSync(join(home, 'extension-token'), 0o604);
    const start = await h.run(['service', 'start'], { home });
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/refusing to use .*extension-token: its mode is 0604/);
    expect(existsSync(join(home, 'token'))).toBe(false);
  });

  it('a port in use: start fails with "port N is in use" and cleans up after itself', async () => {
    const home = h.home();
    const start = await h.run(['service', 'start'], { home, env: { BPROXY_PORT: String(busyPort) } });
    expect(start.code).toBe(1);
    expect(start.stdout).toBe('');
    expect(start.stderr).toContain(`bproxy: port ${busyPort} is in use on 127.0.0.1`);
    for (const file of ['bproxy.pid', 'port', 'token', 'pairing.json'])
      expect(existsSync(join(home, file)), file).toBe(false);
  });

  it.each([
    ['BPROXY_PORT', 'http', /BPROXY_PORT must be a port number from 0 to 65535/],
    ['BPROXY_PORT', '70000', /BPROXY_PORT must be a port number/],
    ['BPROXY_PORT', '80.5', /BPROXY_PORT must be a port number/],
    [
      'BPROXY_LOG_LEVEL',
      'verbose',
      /BPROXY_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"/,
    ],
    [
      'BPROXY_EXTENSION_ID',
      'a'.repeat(32),
      /BPROXY_EXTENSION_ID is no longer read: trust an extension id with `bproxy host install --extension-id ID`/,
    ],
    ['BPROXY_IDLE_EXIT', '900', /BPROXY_IDLE_EXIT must be a period like 500ms, 30s, 5m or 2h.*got "900"/],
    ['BPROXY_BROWSER_IDLE', '5 minutes', /BPROXY_BROWSER_IDLE must be a period like/],
    ['BPROXY_CDP_MODE', 'pool', /BPROXY_CDP_MODE must be shared or per-session, got "pool"/],
  ])('%s=%s is refused with a message naming the variable', async (name, value, message) => {
    const home = h.home();
    const start = await h.run(['service', 'start'], { home, env: { [name]: value } });
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(message);
    expect(existsSync(join(home, 'bproxy.pid'))).toBe(false);
  });

  it.each([
    [['--cdp-max-browsers', '0'], /--cdp-max-browsers must be a whole number from 1 to 1000, got "0"/],
    [['--cdp-mode', 'per-session'], /--cdp-mode and --cdp-max-browsers need a CDP URL/],
    [['--browser-idle', '300'], /--browser-idle must be a period like 500ms, 30s, 5m or 2h/],
  ])('service start %j is refused with a plain message', async (args, message) => {
    const home = h.home();
    const start = await h.run(['service', 'start', '--browser', 'none', ...args], { home });
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(message);
    expect(existsSync(join(home, 'bproxy.pid'))).toBe(false);
  });
});
