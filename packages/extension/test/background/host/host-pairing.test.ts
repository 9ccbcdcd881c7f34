/**
 * Zero-touch pairing through the native host, against a scripted host port and a scripted daemon
 * claim: an unpaired browser pairs by itself, claiming the host's direct code exactly as given; a daemon on a
 * new port is followed; a reset daemon is re-paired; a browser whose token was taken by another pairing
 * is not (two profiles would take it from each other forever); attempts are spaced.
 */
import { describe, expect, it, vi } from 'vitest';
import { NATIVE_PROTOCOL_VERSION, PROTOCOL_VERSION } from '@bproxy/protocol';
import type { PortLike } from '../../../src/chrome-api';
import type { Connection } from '../../../src/background/daemon/connection';
import { HostPairing } from '../../../src/background/host/host-pairing';
import { WorkerLog } from '../../../src/background/log';
import { NativeHost } from '../../../src/background/host/native-host';
import { PairingStore } from '../../../src/background/daemon/pairing-state';
import { FakeEvent, MemoryStorage } from '../../helpers/fakes';

/** What the real host hands out: a direct code, 32 random bytes as base64url. */
const DIRECT_CODE = `Ab-_${'x9'.repeat(19)}Q`;

/** A host that answers like the real one: welcome, where the daemon is, a fresh direct code. */
class ScriptedHost implements PortLike {
  readonly name = 'native';
  readonly requests: string[] = [];
  readonly onMessage = new FakeEvent<(message: unknown) => void>();
  readonly onDisconnect = new FakeEvent<() => void>();
  daemonPort: number | null = 9615;
  disconnect(): void {}
  postMessage(raw: unknown): void {
    const message = raw as { type: string; id?: string };
    this.requests.push(message.type);
    const answer = (reply: unknown) => queueMicrotask(() => this.onMessage.fire(reply));
    if (message.type === 'hello')
      answer({ type: 'welcome', protocolVersion: NATIVE_PROTOCOL_VERSION, hostVersion: '0.1.0' });
    else if (message.type === 'daemon.locate')
      answer({
        type: 'daemon.location',
        id: message.id,
        running: this.daemonPort !== null,
        port: this.daemonPort,
        started: false,
      });
    else if (message.type === 'pairing.request') {
      this.daemonPort ??= 9615;
      answer({
        type: 'pairing.code',
        id: message.id,
        port: this.daemonPort,
        code: DIRECT_CODE,
        expiresAt: 1,
      });
    }
  }
  push(message: unknown): void {
    this.onMessage.fire(message);
  }
}

function setup(opts: { paired?: boolean; daemonPort?: number | null } = {}) {
  const port = new ScriptedHost();
  if (opts.daemonPort !== undefined) port.daemonPort = opts.daemonPort;
  const log = new WorkerLog(100, Date.now, false);
  let clock = 0;
  const host = new NativeHost({
    chrome: { runtime: { connectNative: () => port } as never },
    log,
    extensionVersion: '0.1.0',
  });
  const storage = new MemoryStorage();
  const pairing = new PairingStore(storage, () => 'instance-abcdefgh');
  const claims: { url: string; body: string }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    claims.push({ url, body: String(init.body) });
    const port = new URL(url).port;
    return new Response(
      JSON.stringify({
        ok: true,
        data: {
          extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
          wsUrl: `ws://127.0.0.1:${port}/ws`,
          protocolVersion: PROTOCOL_VERSION,
          issuedAt: 1,
          expiresAt: 2,
          nonce: `n${claims.length}`,
        },
      }),
      { status: 200 },
    );
  });
  const connection = { restart: vi.fn(), retryNow: vi.fn() };
  const hostPairing = new HostPairing({
    host,
    pairing,
    connection: connection as unknown as Connection,
    log,
    now: () => clock,
    fetch,
  });
  hostPairing.install();
  return {
    port,
    host,
    pairing,
    storage,
    claims,
    connection,
    hostPairing,
    advance: (ms: number) => (clock += ms),
  };
}

async function settled(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 0));
  expect(check()).toBe(true);
}

describe('zero-touch pairing through the native host', () => {
  it('pairs an unpaired browser by itself: the host starts the daemon, its direct code is claimed exactly as given', async () => {
    const t = setup({ daemonPort: null });
    await t.host.ensure();
    await settled(() => t.connection.restart.mock.calls.length === 1);
    expect(t.port.requests).toEqual(['hello', 'daemon.locate', 'pairing.request']);
    expect(t.claims).toEqual([
      {
        url: 'http://127.0.0.1:9615/pair/claim',
        body: JSON.stringify({ code: DIRECT_CODE }),
        origin: undefined,
      },
    ]);
    expect(await t.pairing.load()).toMatchObject({ wsUrl: 'ws://127.0.0.1:9615/ws', pairedVia: 'host' });
    expect(t.hostPairing.status()).toMatchObject({ state: 'paired' });
  });

  it('follows the daemon to the port the host reports, and connects at once when it starts', async () => {
    const t = setup({ daemonPort: 9700 });
    await t.storage.set({
      pairing: {
        extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
        wsUrl: 'ws://127.0.0.1:9615/ws',
        nonce: 'n',
        pairedAt: 1,
      },
    });
    await t.host.ensure();
    await settled(() => t.connection.restart.mock.calls.length === 1);
    expect((await t.pairing.load())?.wsUrl).toBe('ws://127.0.0.1:9700/ws');
    t.port.push({ type: 'daemon.location', id: 'watch', running: true, port: 9700, started: false });
    await settled(() => t.connection.retryNow.mock.calls.length === 1);
    expect(t.claims).toEqual([]);
  });

  it('re-pairs a daemon that lost its pairing, but not a browser whose token another pairing took', async () => {
    const t = setup();
    await t.storage.set({
      pairing: {
        extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
        wsUrl: 'ws://127.0.0.1:9615/ws',
        nonce: 'n',
        pairedAt: 1,
      },
    });
    await t.host.ensure();
    await settled(() => t.port.requests.includes('daemon.locate'));
    t.hostPairing.onProofFailed({ ok: false, kind: 'unproven', message: 'something else is listening' });
    await settled(() => t.port.requests.filter((r) => r === 'daemon.locate').length === 2);
    expect(t.port.requests).not.toContain('pairing.request');
    t.hostPairing.onProofFailed({ ok: false, kind: 'unpaired', message: 'the daemon has no pairing' });
    await settled(() => t.claims.length === 1);
    expect(t.port.requests).toContain('pairing.request');
  });

  it('spaces automatic attempts a minute apart', async () => {
    const t = setup();
    await t.host.ensure();
    await settled(() => t.claims.length === 1);
    await t.pairing.forget();
    await t.hostPairing.pair('again');
    expect(t.claims).toHaveLength(1);
    t.advance(60_000);
    await t.hostPairing.pair('again');
    expect(t.claims).toHaveLength(2);
  });
});
