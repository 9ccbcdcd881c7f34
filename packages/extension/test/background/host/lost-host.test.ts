/**
 * A native host that goes away, seen from the side panel: the worker's real host port and panel relay
 * between a scripted native port and a scripted panel port. The panel's request that was waiting, and
 * the chat message it sends next, come back as NO_NATIVE_HOST (whose hint says to install or check the
 * host) — not NO_DAEMON, whose hint sends the user to start a daemon that is running.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, NATIVE_PROTOCOL_VERSION, type HostToExtension } from '@bproxy/protocol';
import type { PortLike } from '../../../src/chrome-api';
import { PanelRelay } from '../../../src/background/host/panel-relay';
import { NativeHost } from '../../../src/background/host/native-host';
import { WorkerLog } from '../../../src/background/log';
import { FakeEvent, fakeChrome } from '../../helpers/fakes';

class ScriptedPort implements PortLike {
  readonly received: unknown[] = [];
  readonly onMessage = new FakeEvent<(message: unknown) => void>();
  readonly onDisconnect = new FakeEvent<() => void>();
  constructor(
    readonly name: string,
    readonly sender?: { id: string; url: string },
  ) {}
  postMessage(message: unknown): void {
    this.received.push(message);
  }
  disconnect(): void {}
}

function setup() {
  const chrome = fakeChrome();
  const natives: ScriptedPort[] = [];
  const runtime = {
    ...chrome.runtime,
    lastError: undefined as { message?: string } | undefined,
    connectNative: () => {
      const port = new ScriptedPort('native');
      natives.push(port);
      return port;
    },
  };
  const log = new WorkerLog(100, Date.now, false);
  const host = new NativeHost({ chrome: { runtime }, log, extensionVersion: '0.1.0' });
  const relay = new PanelRelay({
    chrome: { ...chrome, runtime },
    log,
    connection: {
      userRequest: async () => ({ ok: false, reason: 'not in this test' }),
      status: () => ({ state: 'connected', stopReason: null }),
    },
    host,
    view: { listen: () => () => undefined },
    share: async () => ({ ok: false, reason: 'not in this test' }),
    startDaemon: async () => ({ ok: false, reason: 'not in this test' }),
    isDriven: () => false,
  });
  relay.install();
  const panel = new ScriptedPort('panel', {
    id: chrome.runtime.id,
    url: `chrome-extension://${chrome.runtime.id}/panel.html`,
  });
  (chrome.runtime.onConnect as FakeEvent<(port: PortLike) => void>).fire(panel);
  /** The first host message the worker passed to the panel that matches. */
  const heard = (predicate: (message: HostToExtension) => boolean) =>
    panel.received
      .filter((m): m is { type: 'host'; message: HostToExtension } => (m as { type: string }).type === 'host')
      .map((m) => m.message)
      .find(predicate);
  return { host, natives, runtime, panel, heard };
}

describe('a lost native host, as the side panel sees it', () => {
  it('answers the waiting request and the next chat message with NO_NATIVE_HOST, not NO_DAEMON', async () => {
    const { host, natives, runtime, panel, heard } = setup();
    const ready = host.ensure();
    natives[0]?.onMessage.fire({
      type: 'welcome',
      protocolVersion: NATIVE_PROTOCOL_VERSION,
      hostVersion: '0.1.0',
    });
    expect(await ready).toBe(true);

    panel.onMessage.fire({ type: 'host', message: { type: 'settings.get', id: 'chat-k3v9-1' } });
    // The panel's id reaches the host as it is.
    await expect.poll(() => natives[0]?.received.at(-1)).toEqual({ type: 'settings.get', id: 'chat-k3v9-1' });

    runtime.lastError = { message: 'Native host has exited.' };
    natives[0]?.onDisconnect.fire();
    await expect
      .poll(() => heard((m) => m.type === 'error' && m.id === 'chat-k3v9-1'))
      .toEqual({
        type: 'error',
        id: 'chat-k3v9-1',
        code: 'NO_NATIVE_HOST',
        message: 'the native host went away: Native host has exited.',
      });

    panel.onMessage.fire({
      type: 'host',
      message: { type: 'user', chatId: 'tab-1', text: 'hi', session: 'm4q7z2' },
    });
    await expect
      .poll(() => heard((m) => m.type === 'error' && m.chatId === 'tab-1'))
      .toMatchObject({
        type: 'error',
        chatId: 'tab-1',
        code: 'NO_NATIVE_HOST',
        message: expect.stringMatching(/native host is not available \(failed\)/),
      });
    expect(ERROR_CATALOGUE.NO_NATIVE_HOST.hint).toMatch(/bproxy host install/);
  });
});
