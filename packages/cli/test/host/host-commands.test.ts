/**
 * `bproxy host install|status|uninstall` and `bproxy setup` as real processes, into a temporary HOME
 * and BPROXY_HOME: JSON on stdout, the launcher running the host bundle built beside the CLI with this
 * Node, status running it once, usage errors for unknown browsers, and help that names every browser.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'node:http';
import { DAEMON_PROOF_PATH, DEFAULT_EXTENSION_ID, freshNonce } from '@bproxy/protocol';
import { BROWSER_IDS } from '@bproxy/native-host/registration';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_NAMES_HELP } from '../../src/commands/host';
import { createHarness, type Harness } from '../helpers/cli-harness';

let h: Harness;
const roots: string[] = [];
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(async () => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  await h.cleanup();
});

/** A HOME where Chromium has run once, and a BPROXY_HOME beside it. */
function user(): { env: Record<string, string>; home: string; state: string } {
  const root = mkdtempSync(join(tmpdir(), 'bproxy-cli-host-'));
  roots.push(root);
  const home = join(root, 'home');
  mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
  writeFileSync(join(home, '.config', 'chromium', 'Local State'), '{}');
  const state = join(root, 'state');
  return { env: { HOME: home, BPROXY_HOME: state }, home, state };
}

const manifestOf = (home: string) =>
  join(home, '.config', 'chromium', 'NativeMessagingHosts', 'com.bproxy.host.json');

describe('bproxy host', () => {
  it('installs, reports the host answering, and uninstalls, in JSON', async () => {
    const { env, home, state } = user();
    const install = await h.run(['host', 'install', '--browser', 'chromium'], { env });
    expect(install.code).toBe(0);
    const installed = JSON.parse(install.stdout) as Record<string, unknown>;
    expect(installed).toMatchObject({
      launcher: join(state, 'host', 'bproxy-host'),
      node: process.execPath,
      // The host's own copy, made from the bundle beside the CLI.
      bundle: join(state, 'host', BPROXY_VERSION, 'native-host.mjs'),
      installedFrom: join(dirname(h.cli), 'native-host.mjs'),
      version: BPROXY_VERSION,
      registered: [{ browser: 'chromium', location: manifestOf(home), replaced: false }],
    });
    expect(existsSync(manifestOf(home))).toBe(true);

    const status = await h.run(['host', 'status', '--browser', 'chromium'], { env });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      ok: true,
      browsers: [{ browser: 'chromium', registered: true, stale: false, answers: { ok: true } }],
    });

    const uninstall = await h.run(['host', 'uninstall'], { env });
    expect(uninstall.code).toBe(0);
    expect(JSON.parse(uninstall.stdout)).toMatchObject({
      browsers: [{ browser: 'chromium', outcome: 'removed' }],
    });
    expect(existsSync(manifestOf(home))).toBe(false);
    expect(existsSync(join(state, 'host', 'bproxy-host'))).toBe(false);
    expect(existsSync(join(state, 'host', BPROXY_VERSION))).toBe(false);
  }, 30_000);

  it('refuses an unknown browser as a usage error that lists the names', async () => {
    const { env } = user();
    const run = await h.run(['host', 'install', '--browser', 'netscape'], { env });
    expect(run.code).toBe(2);
    const error = JSON.parse(run.stderr) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('USAGE');
    expect(error.error.message).toBe(`unknown browser "netscape"; known browsers: ${BROWSER_IDS.join(', ')}`);
  });

  it('names every browser it knows in its help', async () => {
    expect(BROWSER_NAMES_HELP).toBe(BROWSER_IDS.join(', '));
    const help = await h.run(['host', 'install', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(BROWSER_NAMES_HELP);
  });
});

describe('bproxy setup', () => {
  it('registers the host for the browsers found, proves it answers, and says what to do next', async () => {
    // The harness's build copies the extension beside the CLI when the extension is built: here, none.
    rmSync(join(dirname(h.cli), 'extension'), { recursive: true, force: true });
    const { env, home } = user();
    const run = await h.run(['setup', '--browser', 'chromium'], { env });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      built: boolean;
      answers: unknown;
      next: string[];
      extension: unknown;
    };
    expect(report).toMatchObject({ built: false, answers: { ok: true }, extension: null });
    expect(report.next.join('\n')).toContain('Load unpacked');
    expect(JSON.parse(readFileSync(manifestOf(home), 'utf8'))).toMatchObject({ name: 'com.bproxy.host' });

    const pretty = await h.run(['setup', '--browser', 'chromium', '--pretty'], { env });
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toContain('registered with Chromium');
    expect(pretty.stdout).toContain('the host starts and answers');
    expect(pretty.stdout).toContain('Next:\n  1. Open chrome://extensions');
  }, 30_000);
});

/** A POST to the daemon as a browser extension sends it: its Origin, no secret header. */
function postAs(
  port: number,
  origin: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

describe('trusted extension ids', () => {
  it('a daemon started by the CLI accepts the extension id added with --extension-id, and still refuses any other', async () => {
    const { env, state } = user();
    const self = 'abcdefghijklmnopabcdefghijklmnop';
    const install = await h.run(['host', 'install', '--browser', 'chromium', '--extension-id', self], {
      env,
    });
    expect(install.code).toBe(0);
    expect(JSON.parse(install.stdout)).toMatchObject({
      extensionIds: [DEFAULT_EXTENSION_ID, self],
      addedExtensionId: self,
    });
    expect(JSON.parse(readFileSync(join(state, 'extensions.json'), 'utf8'))).toEqual({ ids: [self] });
    const listed = await h.run(['extension', 'ids'], { env });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      ids: [DEFAULT_EXTENSION_ID, self],
      builtIn: [DEFAULT_EXTENSION_ID],
      file: join(state, 'extensions.json'),
    });

    const start = await h.run(['service', 'start', '--browser', 'none'], { env });
    expect(start.code, start.stderr).toBe(0);
    const { port, pairingCode } = JSON.parse(start.stdout) as { port: number; pairingCode: string };
    try {
      const stranger = await postAs(port, `chrome-extension://${'c'.repeat(32)}`, '/pair/claim', {
        code: pairingCode,
      });
      expect(stranger.status).toBe(401);
      const claimed = await postAs(port, `chrome-extension://${self}`, '/pair/claim', { code: pairingCode });
      expect(claimed.status).toBe(200);
      expect(JSON.parse(claimed.body)).toMatchObject({ ok: true, data: { wsUrl: expect.any(String) } });
      // The development id stays trusted beside it, and the stranger is refused on every route.
      const dev = await postAs(port, `chrome-extension://${DEFAULT_EXTENSION_ID}`, DAEMON_PROOF_PATH, {
        clientNonce: freshNonce(),
      });
      expect(dev.status).toBe(200);
      expect(JSON.parse(dev.body)).toMatchObject({ ok: true });
      const proofForStranger = await postAs(port, `chrome-extension://${'c'.repeat(32)}`, DAEMON_PROOF_PATH, {
        clientNonce: freshNonce(),
      });
      expect(proofForStranger.status).toBe(401);
    } finally {
      await h.run(['service', 'stop'], { env });
    }
  }, 30_000);

  it('a running daemon accepts an id added with host install --extension-id at its next request, and no extension at all while extensions.json is open to others', async () => {
    const { env, state } = user();
    const self = 'ponmlkjihgfedcbaponmlkjihgfedcba';
    const start = await h.run(['service', 'start', '--browser', 'none'], { env });
    expect(start.code, start.stderr).toBe(0);
    const { port } = JSON.parse(start.stdout) as { port: number };
    const proofAs = async (id: string) =>
      (await postAs(port, `chrome-extension://${id}`, DAEMON_PROOF_PATH, { clientNonce: freshNonce() }))
        .status;
    try {
      expect(await proofAs(self)).toBe(401);
      const install = await h.run(['host', 'install', '--browser', 'chromium', '--extension-id', self], {
        env,
      });
      expect(install.code, install.stderr).toBe(0);
      // Past the gate (not yet paired: NOT_PAIRED), with the same daemon: no restart.
      expect(await proofAs(self)).toBe(409);
      expect(await proofAs(DEFAULT_EXTENSION_ID)).toBe(409);
      chmodSync(join(state, 'extensions.json'), 0o644);
      expect(await proofAs(self)).toBe(401);
      expect(await proofAs(DEFAULT_EXTENSION_ID)).toBe(401);
      chmodSync(join(state, 'extensions.json'), 0o600);
      expect(await proofAs(self)).toBe(409);
    } finally {
      await h.run(['service', 'stop'], { env });
    }
  }, 30_000);

  it('an extensions.json open to others stops host install with UNSAFE_STATE_FILE and the daemon from starting', async () => {
    const { env, state } = user();
    mkdirSync(state, { recursive: true, mode: 0o700 });
    writeFileSync(join(state, 'extensions.json'), '{"ids":[]}', { mode: 0o600 });
    chmodSync(join(state, 'extensions.json'), 0o644);
    const install = await h.run(['host', 'install', '--browser', 'chromium'], { env });
    expect(install.code).toBe(1);
    expect(JSON.parse(install.stderr)).toMatchObject({ error: { code: 'UNSAFE_STATE_FILE' } });
    const listed = await h.run(['extension', 'ids'], { env });
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.stderr)).toMatchObject({ error: { code: 'UNSAFE_STATE_FILE' } });
    const start = await h.run(['service', 'start', '--browser', 'none'], { env });
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/extensions\.json: its mode is 0644/);
  }, 30_000);
});

describe('bproxy extension path', () => {
  it('prints the built extension folder shipped beside the CLI alone, and setup names it for "Load unpacked"', async () => {
    const folder = join(dirname(h.cli), 'extension');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'manifest.json'), '{}');
    try {
      const run = await h.run(['extension', 'path']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${folder}\n`);
      const { env } = user();
      const setup = await h.run(['setup', '--browser', 'chromium'], { env });
      expect(setup.code).toBe(0);
      const report = JSON.parse(setup.stdout) as { extension: unknown; next: string[] };
      expect(report.extension).toBe(folder);
      expect(report.next).toContain(`Click "Load unpacked" and choose ${folder}`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 30_000);

  it("run from the native host's copy (as in the Terminal), extension path and setup find the installing package's extension", async () => {
    const folder = join(dirname(h.cli), 'extension');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'manifest.json'), '{}');
    try {
      const { env, state } = user();
      const install = await h.run(['host', 'install', '--browser', 'chromium'], { env });
      expect(install.code, install.stderr).toBe(0);
      const copy = join(state, 'host', BPROXY_VERSION);
      const fromCopy = (args: string[]) =>
        new Promise<{ code: number; stdout: string }>((resolve) => {
          execFile(
            process.execPath,
            [join(copy, 'bproxy.mjs'), ...args],
            { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 },
            (error, stdout) => resolve({ code: error === null ? 0 : 1, stdout }),
          );
        });
      const path = await fromCopy(['extension', 'path']);
      expect(path).toEqual({ code: 0, stdout: `${realpathSync(folder)}\n` });
      // setup typed in the Terminal: the copy installs itself again and still names the package's folder.
      const setup = await fromCopy(['setup', '--browser', 'chromium']);
      expect(setup.code).toBe(0);
      expect((JSON.parse(setup.stdout) as { extension: unknown }).extension).toBe(realpathSync(folder));
      expect(realpathSync(join(copy, 'extension'))).toBe(realpathSync(folder));
      // Uninstall removes the link with the copy, and leaves the package's folder.
      expect((await h.run(['host', 'uninstall'], { env })).code).toBe(0);
      expect(existsSync(copy)).toBe(false);
      expect(existsSync(join(folder, 'manifest.json'))).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 40_000);

  it('says where it looked when the built extension is missing, exiting non-zero', async () => {
    rmSync(join(dirname(h.cli), 'extension'), { recursive: true, force: true });
    const run = await h.run(['extension', 'path']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const error = JSON.parse(run.stderr) as { error: { code: string; message: string; hint: string } };
    expect(error.error.code).toBe('LOCAL_ERROR');
    expect(error.error.message).toContain(
      `the built extension is missing: no manifest.json in ${join(dirname(h.cli), 'extension')}`,
    );
    expect(error.error.hint).toContain('Reinstall bproxy');
  });
});
