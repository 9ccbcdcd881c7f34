/**
 * Version skew with real parts: the built extension in headless Chromium, the native host installed by
 * `bproxy host install` and a daemon, one of them rebuilt as another release (tests/kit/versions.ts:
 * the same build with only its version changed — the product has no hook for it). A compatible
 * difference works; an incompatible part is refused, and the popup, the side panel and `bproxy host
 * status` say which part is old and the one command that fixes it.
 */
import { mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BPROXY_VERSION } from '@bproxy/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoChromiumLeft } from '../kit/chromium';
import { EXTENSION_DIR } from '../kit/extension';
import { launchWithNativeHost, type NativeMachine, type NativeMachineOptions } from '../kit/native-host';
import { compatibleVersion, extensionOfVersion, rewriteVersion } from '../kit/versions';
import { until } from '../kit/wait';

const machines: NativeMachine[] = [];
const folders: string[] = [];
afterEach(async () => {
  const dirs = machines.map((m) => m.browser.userDataDir);
  for (const machine of machines.splice(0)) await machine.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  await expectNoChromiumLeft(dirs);
}, 60_000);

async function machine(options: NativeMachineOptions): Promise<NativeMachine> {
  const started = await launchWithNativeHost('bproxy-e2e-skew-', {}, options);
  machines.push(started);
  return started;
}

/** The popup's native host row and its hint, once the row says `state`. */
async function popupHost(m: NativeMachine, state: RegExp): Promise<{ host: string; hint: string }> {
  const popup = await m.browser.context.newPage();
  try {
    await popup.goto(`chrome-extension://${m.browser.extensionId}/popup.html`);
    let seen = { host: '', hint: '' };
    await until(
      `the popup's native host row to say ${state}`,
      async () => {
        seen = {
          host: (await popup.textContent('#host')) ?? '',
          hint: (await popup.textContent('#host-hint')) ?? '',
        };
        return state.test(seen.host);
      },
      20_000,
    );
    return seen;
  } finally {
    await popup.close();
  }
}

/** The side panel's status line, once it says `text`. */
async function panelSays(m: NativeMachine, text: string): Promise<string> {
  const panel = await m.browser.context.newPage();
  try {
    await panel.goto(`chrome-extension://${m.browser.extensionId}/panel.html?tab=1`);
    let line = '';
    await until(
      `the side panel's status line to say ${text}`,
      async () => {
        line = (await panel.textContent('#status')) ?? '';
        return line.includes(text);
      },
      20_000,
    );
    return line;
  } finally {
    await panel.close();
  }
}

interface HostStatusAnswer {
  browsers: { browser: string; answers: { ok: boolean; hostVersion?: string; reason?: string } | null }[];
  ok: boolean;
}

describe('version skew between the extension, the native host and the daemon', () => {
  it('a host of another patch release of the same minor works: it pairs and the popup shows its version', async () => {
    const version = compatibleVersion();
    const m = await machine({ beforeLaunch: (_cli, installed) => rewriteVersion(installed.bundle, version) });
    await m.connected();
    expect((await popupHost(m, /^connected/)).host).toBe(`connected (v${version})`);
    const status = await m.cli.ok<HostStatusAnswer>(['host', 'status', '--browser', 'chromium']);
    expect(status.browsers[0]?.answers).toMatchObject({ ok: true, hostVersion: version });
  }, 90_000);

  it('an older host is refused: popup, side panel and `bproxy host status` name it and `bproxy setup`', async () => {
    const m = await machine({ beforeLaunch: (_cli, installed) => rewriteVersion(installed.bundle, '0.0.9') });
    const expected = `the native host is version 0.0.9 and the extension ${BPROXY_VERSION}: they do not work together, and the native host is the older one — run \`bproxy setup\``;
    expect(await popupHost(m, /^failed/)).toEqual({ host: 'failed', hint: expected });
    expect(await panelSays(m, expected)).toContain('run `bproxy setup`');
    const status = await m.cli.ok<HostStatusAnswer>(['host', 'status', '--browser', 'chromium']);
    expect(status.ok).toBe(false);
    expect(status.browsers[0]?.answers?.reason).toBe(
      `the native host is version 0.0.9, older than this bproxy ${BPROXY_VERSION}, and they do not work together: run \`bproxy setup\``,
    );
    // The fix, as named: `bproxy setup` (here its registration step) puts this release's host back.
    await m.cli.ok(['host', 'install', '--browser', 'chromium']);
    const fixed = await m.cli.ok<HostStatusAnswer>(['host', 'status', '--browser', 'chromium']);
    expect(fixed.browsers[0]?.answers).toMatchObject({ ok: true, hostVersion: BPROXY_VERSION });
  }, 90_000);

  it('an older extension is refused by the host, which says to update the extension', async () => {
    const extension = extensionOfVersion(EXTENSION_DIR, '0.0.5');
    folders.push(extension);
    const m = await machine({ extensionDir: extension });
    const { host, hint } = await popupHost(m, /^failed/);
    expect(host).toBe('failed');
    expect(hint).toBe(
      `the extension is version 0.0.5 and the native host ${BPROXY_VERSION}: they do not work together, and the extension is the older one — update the extension: reload it in chrome://extensions (the unpacked folder \`bproxy setup\` names), or update it from the store`,
    );
    await panelSays(m, 'the extension is the older one — update the extension');
  }, 90_000);

  it('an older daemon is refused by the host before it pairs, naming the restart that fixes it', async () => {
    const daemonDir = mkdtempSync(join(tmpdir(), 'bproxy-old-daemon-'));
    folders.push(daemonDir);
    const m = await machine({
      beforeLaunch: async (cli, installed) => {
        const daemon = join(daemonDir, 'daemon.mjs');
        copyFileSync(join(dirname(installed.bundle), 'daemon.mjs'), daemon);
        rewriteVersion(daemon, '0.0.7');
        cli.setEnv({ BPROXY_DAEMON: daemon });
        await cli.ok(['service', 'start']);
      },
    });
    let hint = '';
    await until(
      'the popup to say why automatic pairing failed',
      async () => {
        hint = (await popupHost(m, /^connected/)).hint;
        return hint.includes('restart the daemon');
      },
      20_000,
    );
    expect(hint).toContain(
      `the daemon is version 0.0.7 and the native host ${BPROXY_VERSION}: they do not work together, and the daemon is the older one — restart the daemon: \`bproxy service stop && bproxy service start\``,
    );
  }, 90_000);
});
