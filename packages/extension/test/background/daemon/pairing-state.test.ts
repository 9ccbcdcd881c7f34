import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@bproxy/protocol';
import { PairingStore, isLoopbackWsUrl } from '../../../src/background/daemon/pairing-state';
import { MemoryStorage } from '../../helpers/fakes';

const bootstrap = (overrides: Record<string, unknown> = {}) => ({
  extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
  wsUrl: 'ws://127.0.0.1:9615/ws',
  protocolVersion: PROTOCOL_VERSION,
  issuedAt: 1,
  expiresAt: 2,
  nonce: 'nonce-1',
  ...overrides,
});

describe('pairing state', () => {
  it('stores a bootstrap once and refuses the same nonce again', async () => {
    const store = new PairingStore(new MemoryStorage(), () => 'instance-abcdefgh');
    expect((await store.accept(bootstrap(), 10)).ok).toBe(true);
    expect(await store.load()).toMatchObject({
      extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
      wsUrl: 'ws://127.0.0.1:9615/ws',
    });
    const again = await store.accept(bootstrap({ extensionToken: 'tok_other_abcdefghijklmnopqrstuvw' }), 11);
    expect(again).toEqual({ ok: false, reason: 'this pairing bootstrap was already used' });
    expect((await store.load())?.extensionToken).toBe('tok_abcdefghijklmnopqrstuvwxyz012345');
  });

  it('refuses a bootstrap that points off this computer or speaks another protocol', async () => {
    const store = new PairingStore(new MemoryStorage(), () => 'instance-abcdefgh');
    expect((await store.accept(bootstrap({ wsUrl: 'ws://evil.test:9615/ws' }), 1)).ok).toBe(false);
    expect(
      (await store.accept(bootstrap({ protocolVersion: PROTOCOL_VERSION + 1, nonce: 'n2' }), 1)).ok,
    ).toBe(false);
    expect(await store.load()).toBeNull();
    expect(isLoopbackWsUrl('ws://localhost:1234/ws')).toBe(true);
    expect(isLoopbackWsUrl('wss://127.0.0.1:1234/ws')).toBe(false);
  });
});
