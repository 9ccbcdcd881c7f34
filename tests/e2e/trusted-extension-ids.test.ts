/**
 * The trusted extension ids as a daemon started by `bproxy mcp` sees them: the built MCP server, a real
 * process, starts the daemon implicitly in a BPROXY_HOME whose extensions.json names a self-built
 * extension; that daemon accepts the extension's Origin on /pair/claim and refuses any other id. And
 * the popup of the built extension in a real Chromium, with no native host registered, asks for the
 * installed command with its own id.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isOurDaemon, parsePidFile, processState } from '@bproxy/client/lifecycle';
import { expectNoChromiumLeft } from '../kit/chromium';
import { launchWithExtension } from '../kit/extension';
import { McpClient } from '../kit/mcp';
import { until } from '../kit/wait';

const home = mkdtempSync(join(tmpdir(), 'bproxy-e2e-ids-'));
let mcp: McpClient | undefined;

afterAll(async () => {
  await mcp?.close();
  try {
    const pid = parsePidFile(readFileSync(join(home, 'bproxy.pid'), 'utf8'));
    if (pid !== null && isOurDaemon(pid, home)) {
      process.kill(pid, 'SIGTERM');
      const until = Date.now() + 10_000;
      while (processState(pid) !== 'dead' && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    }
  } catch {
    // no daemon left
  }
  rmSync(home, { recursive: true, force: true });
});

function claimAs(port: number, origin: string, code: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ code });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/pair/claim',
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('a daemon started by bproxy mcp', () => {
  it('accepts the extension ids of extensions.json and refuses any other', async () => {
    const self = 'abcdefghijklmnopabcdefghijklmnop';
    writeFileSync(join(home, 'extensions.json'), JSON.stringify({ ids: [self] }), { mode: 0o600 });
    mcp = await McpClient.start({
      PATH: process.env.PATH ?? '',
      HOME: home,
      BPROXY_HOME: home,
      BPROXY_PORT: '0',
      BPROXY_BROWSER: 'none',
    });
    // Any tool call makes the server find the daemon, starting it implicitly when none runs.
    await mcp.call('tab_list');
    const port = Number(readFileSync(join(home, 'port'), 'utf8').trim());
    const { pairingCode } = JSON.parse(readFileSync(join(home, 'pairing.json'), 'utf8')) as {
      pairingCode: string;
    };
    expect(await claimAs(port, `chrome-extension://${'c'.repeat(32)}`, pairingCode)).toBe(401);
    expect(await claimAs(port, `chrome-extension://${self}`, pairingCode)).toBe(200);
  }, 60_000);
});

describe('the popup of the built extension', () => {
  it('asks for `bproxy setup --extension-id <its own id>` when no native host is registered, never npx', async () => {
    const userHome = mkdtempSync(join(tmpdir(), 'bproxy-e2e-ids-user-'));
    const browser = await launchWithExtension({ env: { ...process.env, HOME: userHome } });
    try {
      const popup = await browser.context.newPage();
      await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
      const hint = await until('the native host hint', async () => {
        const text = (await popup.textContent('#host-hint')) ?? '';
        return text.includes('bproxy setup') ? text : undefined;
      });
      expect(hint).toContain(`\`bproxy setup --extension-id ${browser.extensionId}\``);
      expect(hint).not.toMatch(/npx|THIS_ID/);
    } finally {
      await browser.close();
      rmSync(userHome, { recursive: true, force: true });
    }
    await expectNoChromiumLeft([browser.userDataDir]);
  }, 60_000);
});
