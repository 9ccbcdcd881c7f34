/**
 * The pairing state in chrome.storage.local: the extension token and WS URL from a successful
 * /pair/claim, the nonces already accepted (a bootstrap is taken once), and this profile's stable
 * instanceId. The worker is the only writer; the popup hands it a bootstrap through a runtime message.
 */
import { PairBootstrapSchema, PROTOCOL_VERSION, type PairBootstrap } from '@bproxy/protocol';
import { z } from 'zod';
import type { StorageArea } from '../../chrome-api';

const PAIRING_KEY = 'pairing';
const NONCES_KEY = 'acceptedNonces';
const INSTANCE_KEY = 'instanceId';
const MAX_NONCES = 50;

const StoredPairingSchema = z.strictObject({
  extensionToken: z.string().regex(/^[A-Za-z0-9_-]{16,256}$/),
  wsUrl: z.string(),
  nonce: z.string(),
  pairedAt: z.number(),
  /** How the code was had: typed by the user, or handed over by the native host. */
  pairedVia: z.enum(['code', 'host']).optional(),
});
export type StoredPairing = z.infer<typeof StoredPairingSchema>;

/** The daemon lives on loopback only: a bootstrap that points anywhere else is refused. */
export function isLoopbackWsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'ws:' &&
    (url.hostname === '127.0.0.1' || url.hostname === 'localhost') &&
    url.pathname === '/ws'
  );
}

export type AcceptResult = { ok: true; pairing: StoredPairing } | { ok: false; reason: string };

export class PairingStore {
  private readonly acceptedListeners: ((pairing: StoredPairing) => Promise<void>)[] = [];

  constructor(
    private readonly local: StorageArea,
    private readonly randomId: () => string,
  ) {}

  async load(): Promise<StoredPairing | null> {
    const got = await this.local.get(PAIRING_KEY);
    const parsed = StoredPairingSchema.safeParse(got[PAIRING_KEY]);
    return parsed.success ? parsed.data : null;
  }

  /** Stores a bootstrap from /pair/claim unless it is malformed, replayed, foreign or of another protocol. */
  async accept(bootstrap: unknown, now: number, via: 'code' | 'host' = 'code'): Promise<AcceptResult> {
    const parsed = PairBootstrapSchema.safeParse(bootstrap);
    if (!parsed.success)
      return { ok: false, reason: 'the daemon answered with a malformed pairing bootstrap' };
    const data: PairBootstrap = parsed.data;
    if (data.protocolVersion !== PROTOCOL_VERSION) {
      return {
        ok: false,
        reason: `the daemon speaks protocol ${data.protocolVersion}, this extension ${PROTOCOL_VERSION}: update the older one`,
      };
    }
    if (!isLoopbackWsUrl(data.wsUrl))
      return { ok: false, reason: 'the pairing bootstrap points outside this computer' };
    const stored = await this.local.get(NONCES_KEY);
    const nonces = Array.isArray(stored[NONCES_KEY])
      ? (stored[NONCES_KEY] as unknown[]).filter((n) => typeof n === 'string')
      : [];
    if (nonces.includes(data.nonce)) return { ok: false, reason: 'this pairing bootstrap was already used' };
    const pairing = StoredPairingSchema.safeParse({
      extensionToken: data.extensionToken,
      wsUrl: data.wsUrl,
      nonce: data.nonce,
      pairedAt: now,
      pairedVia: via,
    });
    if (!pairing.success)
      return { ok: false, reason: 'the daemon answered with a malformed extension token' };
    await this.local.set({
      [PAIRING_KEY]: pairing.data,
      [NONCES_KEY]: [...nonces, data.nonce].slice(-MAX_NONCES),
    });
    for (const listener of this.acceptedListeners) await listener(pairing.data);
    return { ok: true, pairing: pairing.data };
  }

  /** Called after each bootstrap accepted (typed code or native host), before accept() answers. */
  onAccepted(listener: (pairing: StoredPairing) => Promise<void>): void {
    this.acceptedListeners.push(listener);
  }

  /**
   * The daemon the pairing belongs to now listens on another port (the native host read it from
   * BPROXY_HOME). Same token: the daemon proof on the new port still decides whether it is ours.
   */
  async movePort(port: number): Promise<StoredPairing | null> {
    const current = await this.load();
    if (!current) return null;
    const url = new URL(current.wsUrl);
    if (url.port === String(port)) return current;
    url.port = String(port);
    const moved = { ...current, wsUrl: url.toString() };
    if (!isLoopbackWsUrl(moved.wsUrl)) return current;
    await this.local.set({ [PAIRING_KEY]: moved });
    return moved;
  }

  async forget(): Promise<void> {
    await this.local.remove(PAIRING_KEY);
  }

  /** A random id created on first use and kept for the life of the profile. */
  async instanceId(): Promise<string> {
    const got = await this.local.get(INSTANCE_KEY);
    const existing = got[INSTANCE_KEY];
    if (typeof existing === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(existing)) return existing;
    const fresh = this.randomId();
    await this.local.set({ [INSTANCE_KEY]: fresh });
    return fresh;
  }
}

/** 16 random bytes as base64url: an instanceId. */
export function randomInstanceId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
