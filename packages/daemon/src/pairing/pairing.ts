/**
 * One-time pairing codes (5 minutes, single use) and the claim that turns a code into the single
 * active extension token. A typed code (ABCD-EFGH) is what a person types in the popup; a direct code
 * (32 random bytes) is what the native host, holding the daemon token, asks for and passes to the
 * extension. Only one code is live at a time, of either kind; issuing a new one retires the old.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { PAIRING_TTL_MS, type PairingCodeKind, type PairingErrorCode } from '@bproxy/protocol';
import { secretEquals } from '../http/auth';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export interface IssuedCode {
  code: string;
  issuedAt: number;
  expiresAt: number;
}

interface LiveCode {
  code: string;
  issuedAt: number;
  expiresAt: number;
  /** Monotonic expiry: immune to wall-clock jumps. */
  expiresAtMono: number;
  consumed: boolean;
}

export function generatePairingCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += LETTERS[randomInt(LETTERS.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

/** A fresh extension token: 32 random bytes, base64url. */
export function generateExtensionToken(): string {
  return randomBytes(32).toString('base64url');
}

export class PairingCodes {
  private live: LiveCode | null = null;
  private readonly usedNonces = new Set<string>();

  constructor(private readonly clock: { now(): number; monotonic(): number }) {}

  issue(kind: PairingCodeKind = 'typed'): IssuedCode {
    const issuedAt = this.clock.now();
    const code = kind === 'direct' ? randomBytes(32).toString('base64url') : generatePairingCode();
    this.live = {
      code,
      issuedAt,
      expiresAt: issuedAt + PAIRING_TTL_MS,
      expiresAtMono: this.clock.monotonic() + PAIRING_TTL_MS,
      consumed: false,
    };
    return { code, issuedAt, expiresAt: issuedAt + PAIRING_TTL_MS };
  }

  /**
   * Checks and consumes in one synchronous step, so two concurrent claims of the same code cannot
   * both succeed (the event loop gives no interleaving inside this call).
   */
  consume(submitted: string): { ok: true } | { ok: false; code: PairingErrorCode } {
    const live = this.live;
    // Compare against the live code even when none is live, so timing says nothing about existence.
    const matches = secretEquals(submitted, live?.code ?? 'XXXX-XXXX') && live !== null;
    if (!live || !matches) return { ok: false, code: 'PAIRING_CODE_INVALID' };
    if (live.consumed) return { ok: false, code: 'PAIRING_CODE_CONSUMED' };
    if (this.clock.monotonic() >= live.expiresAtMono) return { ok: false, code: 'PAIRING_CODE_EXPIRED' };
    live.consumed = true;
    return { ok: true };
  }

  /** A nonce never handed out before by this daemon. */
  nonce(): string {
    let nonce: string;
    do nonce = `${Date.now().toString(36)}-${randomBytes(12).toString('base64url')}`;
    while (this.usedNonces.has(nonce));
    this.usedNonces.add(nonce);
    return nonce;
  }
}
