/**
 * The worker's port to the native host, against a scripted port: hello first, welcome checked,
 * requests answered by id, streams to listeners, chunked messages reassembled, bad messages dropped,
 * and a host that is not installed reported as such and not retried in a loop.
 */
import { describe, expect, it } from 'vitest';
import { NATIVE_PROTOCOL_VERSION, splitForBrowser, type HostToExtension } from '@bproxy/protocol';
import type { PortLike } from '../../../src/chrome-api';
import { WorkerLog } from '../../../src/background/log';
import { NativeHost } from '../../../src/background/host/native-host';
import { FakeEvent } from '../../helpers/fakes';

class FakeNativePort implements PortLike {
  readonly name = 'native';
  readonly sent: unknown[] = [];
  readonly onMessage = new FakeEvent<(message: unknown) => void>();
  readonly onDisconnect = new FakeEvent<() => void>();
  disconnected = false;
  postMessage(message: unknown): void {
    this.sent.push(message);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  reply(message: unknown): void {
    this.onMessage.fire(message);
  }
}

function setup(now = () => 0) {
  const ports: FakeNativePort[] = [];
  const runtime = {
    lastError: undefined as { message?: string } | undefined,
    connectNative: () => {
      const port = new FakeNativePort();
      ports.push(port);
      return port;
    },
  };
  const log = new WorkerLog(100, Date.now, false);
  const host = new NativeHost({
    chrome: { runtime: runtime as never },
    log,
    extensionVersion: '0.1.0',
    now,
    requestTimeoutMs: 1_000,
  });
  return { host, ports, runtime, log };
}

const welcome = { type: 'welcome', protocolVersion: NATIVE_PROTOCOL_VERSION, hostVersion: '0.1.0' };

describe('the native host port', () => {
  it('says hello first, and is connected once the host welcomes it', async () => {
    const { host, ports } = setup();
    const ready = host.ensure();
    expect(ports[0]?.sent[0]).toEqual({
      type: 'hello',
      protocolVersion: NATIVE_PROTOCOL_VERSION,
      extensionVersion: '0.1.0',
    });
    ports[0]?.reply(welcome);
    expect(await ready).toBe(true);
    expect(host.status()).toEqual({ state: 'connected', hostVersion: '0.1.0', lastError: null });
    expect(await host.ensure()).toBe(true);
    expect(ports).toHaveLength(1);
  });

  it('refuses a host whose version does not work with it, naming the host as old and `bproxy setup`', async () => {
    const { host, ports } = setup();
    const ready = host.ensure();
    ports[0]?.reply({ ...welcome, hostVersion: '0.0.4' });
    expect(await ready).toBe(false);
    expect(ports[0]?.disconnected).toBe(true);
    expect(host.status()).toEqual({
      state: 'failed',
      hostVersion: null,
      lastError:
        'the native host is version 0.0.4 and the extension 0.1.0: they do not work together, and the native host is the older one — run `bproxy setup`',
    });
  });

  it("shows the host's refusal of its version, and not the exit that follows it", async () => {
    const { host, ports, runtime } = setup();
    const ready = host.ensure();
    const why = 'the extension is version 0.1.0 and the native host 0.2.0: … — update the extension';
    ports[0]?.reply({ type: 'error', code: 'VERSION_MISMATCH', message: why });
    runtime.lastError = { message: 'Native host has exited.' };
    ports[0]?.onDisconnect.fire();
    expect(await ready).toBe(false);
    expect(host.status()).toEqual({ state: 'failed', hostVersion: null, lastError: why });
  });

  it('answers a request with the message that carries its id, and hands the rest to listeners', async () => {
    const { host, ports } = setup();
    const ready = host.ensure();
    ports[0]?.reply(welcome);
    await ready;
    const heard: HostToExtension[] = [];
    host.onMessage((m) => heard.push(m));
    const answer = host.request({ type: 'daemon.locate', start: false });
    const sent = ports[0]?.sent.at(-1) as { id: string };
    ports[0]?.reply({ type: 'delta', chatId: 'c1', text: 'hello' });
    ports[0]?.reply({ type: 'daemon.location', id: sent.id, running: true, port: 9615, started: false });
    expect(await answer).toEqual({
      type: 'daemon.location',
      id: sent.id,
      running: true,
      port: 9615,
      started: false,
    });
    expect(heard).toEqual([{ type: 'delta', chatId: 'c1', text: 'hello' }]);
  });

  it('sends a passed-on request under the id its sender chose, and refuses a second one under it', async () => {
    const { host, ports } = setup();
    const ready = host.ensure();
    ports[0]?.reply(welcome);
    await ready;
    const answer = host.request({ type: 'settings.get' }, 'chat-k3v9-1');
    expect(ports[0]?.sent.at(-1)).toEqual({ type: 'settings.get', id: 'chat-k3v9-1' });
    expect(await host.request({ type: 'settings.get' }, 'chat-k3v9-1')).toMatchObject({
      type: 'error',
      id: 'chat-k3v9-1',
      message: expect.stringMatching(/already waits/),
    });
    expect(ports[0]?.sent).toHaveLength(2);
    const settings = {
      type: 'settings',
      id: 'chat-k3v9-1',
      provider: null,
      models: { fast: 'f', strong: 's' },
      tools: {},
      configured: false,
    };
    ports[0]?.reply(settings);
    expect(await answer).toEqual(settings);
  });

  it('reassembles a message that came in chunks, and drops what is outside the protocol', async () => {
    const { host, ports, log } = setup();
    const ready = host.ensure();
    ports[0]?.reply(welcome);
    await ready;
    const heard: HostToExtension[] = [];
    host.onMessage((m) => heard.push(m));
    const big = { type: 'delta', chatId: 'c1', text: 'é'.repeat(40_000) };
    const frames = splitForBrowser(JSON.stringify(big), 'k1', 16 * 1024);
    expect(frames.length).toBeGreaterThan(2);
    for (const frame of frames) ports[0]?.reply(JSON.parse(frame));
    ports[0]?.reply({ type: 'delta', chatId: 'c1', text: 'x', extra: true });
    expect(heard).toEqual([big]);
    expect(log.tail(100).some((e) => e.event === 'native_bad_message')).toBe(true);
  });

  it('reports a host that is not installed and does not retry it on every wake-up', async () => {
    let clock = 0;
    const { host, ports, runtime } = setup(() => clock);
    const ready = host.ensure();
    runtime.lastError = { message: 'Specified native messaging host not found.' };
    ports[0]?.onDisconnect.fire();
    expect(await ready).toBe(false);
    expect(host.status().state).toBe('missing');
    expect(await host.ensure()).toBe(false);
    expect(ports).toHaveLength(1);
    expect(await host.request({ type: 'pairing.request' })).toMatchObject({
      type: 'error',
      code: 'NO_NATIVE_HOST',
    });
    expect(ports).toHaveLength(1);
    clock = 61_000;
    const again = host.ensure();
    expect(ports).toHaveLength(2);
    ports[1]?.onDisconnect.fire();
    expect(await again).toBe(false);
  });

  it('refuses a host of another protocol version', async () => {
    const { host, ports } = setup();
    const ready = host.ensure();
    ports[0]?.reply({ ...welcome, protocolVersion: NATIVE_PROTOCOL_VERSION + 1 });
    expect(await ready).toBe(false);
    expect(host.status()).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/protocol/) });
    expect(ports[0]?.disconnected).toBe(true);
  });

  it('answers pending requests with an error when the host goes away', async () => {
    const { host, ports, runtime } = setup();
    const ready = host.ensure();
    ports[0]?.reply(welcome);
    await ready;
    const answer = host.request({ type: 'pairing.request' });
    runtime.lastError = { message: 'Native host has exited.' };
    ports[0]?.onDisconnect.fire();
    expect(await answer).toMatchObject({
      type: 'error',
      code: 'NO_NATIVE_HOST',
      message: expect.stringMatching(/exited/),
    });
    expect(host.status().state).toBe('failed');
  });
});
