/**
 * Random hex strings (tokens, temporary file names) from Web Crypto, the same CSPRNG as node:crypto:
 * the action path of the compiled CLI reads these lifecycle modules, and loading node:crypto costs
 * it ~3 ms per run whether or not anything random is needed.
 */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
