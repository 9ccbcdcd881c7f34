/**
 * The native port's gate. Chrome starts the host with the caller's origin as its first argument
 * (`chrome-extension://<id>/`, trailing slash included; Windows adds `--parent-window=N` after it).
 * Only our extension may talk to the host: the id is the protocol's DEFAULT_EXTENSION_ID, or the one
 * `bproxy host install --extension-id` baked into the launcher as BPROXY_EXTENSION_ID (which the
 * daemon the host starts inherits, so it accepts the same extension's Origin). Compared as an exact
 * string; the host refuses before it reads a byte of stdin.
 */
import { parseExtensionId, type Env } from '@bproxy/client/lifecycle';

export function extensionOrigin(extensionId: string): string {
  return `chrome-extension://${extensionId}/`;
}

export type OriginCheck =
  { readonly ok: true; readonly origin: string } | { readonly ok: false; readonly reason: string };

export function checkCaller(argv: readonly string[], env: Env): OriginCheck {
  let expected: string;
  try {
    expected = extensionOrigin(parseExtensionId(env.BPROXY_EXTENSION_ID));
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const caller = argv[0];
  if (caller === undefined) return { ok: false, reason: 'no caller origin argument' };
  if (caller !== expected)
    return { ok: false, reason: `the caller ${JSON.stringify(caller.slice(0, 120))} is not ${expected}` };
  return { ok: true, origin: caller };
}
