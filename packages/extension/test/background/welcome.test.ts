/**
 * The welcome page after the first pairing: opened once per profile, in front, whichever way the
 * pairing came (each accepted bootstrap asks); never again after a second pairing, a restart of the
 * worker on the same storage, or two pairings that end together.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@bproxy/protocol';
import { PairingStore } from '../../src/background/daemon/pairing-state';
import { WorkerLog } from '../../src/background/log';
import { WELCOMED_KEY, welcomer, type WelcomeChrome } from '../../src/background/welcome';
import { MemoryStorage } from '../helpers/fakes';

const bootstrap = (nonce: string) => ({
  extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
  wsUrl: 'ws://127.0.0.1:9615/ws',
  protocolVersion: PROTOCOL_VERSION,
  issuedAt: 1,
  expiresAt: 2,
  nonce,
});

function browser(local: MemoryStorage) {
  const created: { url?: string; active?: boolean }[] = [];
  const chrome: WelcomeChrome = {
    storage: { local },
    tabs: {
      create: (props) => {
        created.push(props);
        return Promise.resolve({ id: created.length });
      },
    },
  };
  return { chrome, created };
}

describe('the welcome page', () => {
  it('opens once, in front, on the first accepted pairing, and never after', async () => {
    const local = new MemoryStorage();
    const { chrome, created } = browser(local);
    const store = new PairingStore(local, () => 'instance-abcdefgh');
    const welcome = welcomer(chrome, new WorkerLog(50, () => 5), () => 5);
    store.onAccepted(welcome);
    expect((await store.accept(bootstrap('n1'), 1, 'host')).ok).toBe(true);
    expect(created).toEqual([{ url: 'welcome.html', active: true }]);
    expect((await local.get(WELCOMED_KEY))[WELCOMED_KEY]).toBe(5);

    // Paired again (by code), and a new worker on the same profile: no second page.
    expect((await store.accept(bootstrap('n2'), 2)).ok).toBe(true);
    const next = new PairingStore(local, () => 'instance-abcdefgh');
    next.onAccepted(welcomer(chrome, new WorkerLog(50, () => 6), () => 6));
    expect((await next.accept(bootstrap('n3'), 3)).ok).toBe(true);
    expect(created).toHaveLength(1);
  });

  it('opens one page for two pairings that end together, and none for a refused bootstrap', async () => {
    const local = new MemoryStorage();
    const { chrome, created } = browser(local);
    const welcome = welcomer(chrome, new WorkerLog(50, () => 1), () => 1);
    const store = new PairingStore(local, () => 'instance-abcdefgh');
    store.onAccepted(welcome);
    expect((await store.accept({ ...bootstrap('bad'), wsUrl: 'ws://evil.test/ws' }, 1)).ok).toBe(false);
    expect(created).toEqual([]);
    await Promise.all([welcome(), welcome()]);
    expect(created).toHaveLength(1);
  });
});
