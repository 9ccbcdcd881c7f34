/**
 * The popup's messages reach the worker through the relay: the popup polls `status` every second, and
 * every message also wakes the worker's connection. The status must tell what the last attempt found,
 * not the attempt the poll itself starts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../../../src/background/daemon/connection';
import type { ProofOutcome } from '../../../src/background/daemon/daemon-proof';
import { PairingStore } from '../../../src/background/daemon/pairing-state';
import { installPopupRelay } from '../../../src/background/daemon/popup-relay';
import { WorkerLog } from '../../../src/background/log';
import type { MessageSender } from '../../../src/chrome-api';
import type { WorkerStatus } from '../../../src/common/messages';
import { fakeChrome, socketRecorder, type FakeEvent } from '../../helpers/fakes';

const UNPROVEN = 'something else is listening on port 9615: it could not prove it is the bproxy daemon';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

async function worker() {
  const chrome = fakeChrome();
  await chrome.local.set({
    pairing: {
      extensionToken: 'tok_abcdefghijklmnopqrstuvwxyz012345',
      wsUrl: 'ws://127.0.0.1:9615/ws',
      nonce: 'n1',
      pairedAt: 1,
    },
  });
  const log = new WorkerLog(100, Date.now, false);
  const prove = vi.fn(async (): Promise<ProofOutcome> => ({
    ok: false,
    kind: 'unproven',
    message: UNPROVEN,
  }));
  const connection = new Connection({
    socketFactory: socketRecorder().factory,
    prove,
    onPush: vi.fn(),
    onProofFailed: vi.fn(),
    pairing: new PairingStore(chrome.local, () => 'instance1-abcdefgh'),
    log,
    random: () => 0.99,
    clientInfo: async () => ({ kind: 'extension' as const, name: 'chrome', version: '0.1.0' }),
    onRequest: vi.fn(),
  });
  installPopupRelay({
    chrome,
    log,
    now: Date.now,
    pairing: { accept: vi.fn(), forget: vi.fn() },
    connection,
    share: vi.fn(),
    startDaemon: vi.fn(),
    isDriven: () => false,
    sessionOf: () => null,
    status: (): WorkerStatus => ({
      ...connection.status(),
      host: { state: 'missing', hostVersion: null, lastError: null },
      autoPairing: { state: 'idle' },
      drivenTabs: 0,
      debuggerTabs: [],
      inFlight: 0,
      version: '0.1.0',
    }),
    wake: () => connection.ensureConnected(),
  });
  const popup: MessageSender = {
    id: chrome.runtime.id,
    url: `chrome-extension://${chrome.runtime.id}/popup.html`,
  };
  const poll = (): WorkerStatus | undefined => {
    let answer: WorkerStatus | undefined;
    const onMessage = chrome.runtime.onMessage as FakeEvent<
      Parameters<typeof chrome.runtime.onMessage.addListener>[0]
    >;
    onMessage.fire({ type: 'status' }, popup, (response: unknown) => {
      answer = response as WorkerStatus;
    });
    return answer;
  };
  return { connection, prove, poll };
}

describe("the popup's status", () => {
  it('tells why the last attempt failed, though each poll a second later wakes a new attempt', async () => {
    const w = await worker();
    // Failed attempts back off: after a few the next retry is seconds away (0.99 of the 10 s cap).
    for (let attempt = 0; attempt < 8; attempt++) {
      w.connection.retryNow();
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(w.connection.status().state).toBe('waiting');
    for (let poll = 1; poll <= 3; poll++) {
      const attempts = w.prove.mock.calls.length;
      // The popup's next poll comes a second after the last attempt began.
      await vi.advanceTimersByTimeAsync(1_000);
      const status = w.poll();
      expect(status?.state).toBe('waiting');
      expect(status?.lastError).toBe(UNPROVEN);
      // The poll woke the worker: a new attempt is under way, and fails the same way.
      expect(w.connection.status().state).toBe('connecting');
      await vi.advanceTimersByTimeAsync(0);
      expect(w.prove.mock.calls.length).toBe(attempts + 1);
    }
  });
});
