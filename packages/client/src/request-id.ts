/** Request ids: 12 characters of lowercase base32 from 60 random bits — unique enough to key idempotency. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function newRequestId(): string {
  // Web Crypto, not node:crypto: loading that module costs the compiled CLI a millisecond per run.
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let id = '';
  for (let i = 0; i < 12; i++) {
    id += ALPHABET[Number(bits & 31n)];
    bits >>= 5n;
  }
  return id;
}
