/**
 * The native port's gate. Chrome starts the host with the caller's origin as its first argument
 * (`chrome-extension://<id>/`, trailing slash included; Windows adds `--parent-window=N` after it).
 * Only a trusted extension may talk to the host: the built-in ids and those in BPROXY_HOME's
 * extensions.json — the one setting the daemon the host starts reads too, so both accept the same
 * set. Compared as exact strings; an unsafe or malformed extensions.json refuses every caller; the
 * host refuses before it reads a byte of stdin.
 */
import { resolveHome, statePaths, trustedExtensionIds, type Env } from '@bproxy/client/lifecycle';

export function extensionOrigin(extensionId: string): string {
  return `chrome-extension://${extensionId}/`;
}

export type OriginCheck =
  { readonly ok: true; readonly origin: string } | { readonly ok: false; readonly reason: string };

export function checkCaller(argv: readonly string[], env: Env): OriginCheck {
  let expected: readonly string[];
  try {
    expected = trustedExtensionIds(statePaths(resolveHome(env))).map(extensionOrigin);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const caller = argv[0];
  if (caller === undefined) return { ok: false, reason: 'no caller origin argument' };
  if (!expected.includes(caller))
    return {
      ok: false,
      reason: `the caller ${JSON.stringify(caller.slice(0, 120))} is not a trusted extension (${expected.join(', ')})`,
    };
  return { ok: true, origin: caller };
}
