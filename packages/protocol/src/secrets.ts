/**
 * Secrets the model never sees (`bproxy secret add|list|remove`, `fill --secret NAME`): the name an
 * agent may use, the origin a secret is bound to, and the store file's shape (BPROXY_HOME/secrets.json,
 * each value sealed with AES-256-GCM; see @bproxy/client's secret store). Only names and origins are
 * ever shown; a value leaves the store only on its way into a field of its origin.
 */
import { z } from 'zod';

/** A secret's name: what an agent says instead of the value (`fill el3 --secret bank`). */
export const SecretNameSchema = z
  .string()
  // A refinement rather than a pattern: the tool's JSON Schema stays short.
  .refine(
    (n) => /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(n),
    'a secret name: 1-64 of A-Z a-z 0-9 _ . - (not first)',
  );

export { SECRET_MASK, SECRET_MIN_LENGTH, SECRET_MAX_LENGTH, maskSecrets } from './secret-mask';

/**
 * The origin a secret is added for, as the browser writes it (`https://bank.example`,
 * `http://127.0.0.1:8080`); an error sentence for anything else (a path, credentials, another scheme).
 */
export function secretOrigin(raw: string): { origin: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      error: `not a URL: ${JSON.stringify(raw.slice(0, 100))}; give an origin like https://bank.example`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { error: `an origin is http: or https:, not ${url.protocol}` };
  if (url.username !== '' || url.password !== '') return { error: 'an origin has no user name or password' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return { error: `give the origin only (${url.origin}), without a path, query or fragment` };
  return { origin: url.origin };
}

const Sealed = z.strictObject({
  origin: z.string().min(1).max(300),
  /** base64 of the 12-byte nonce, the 16-byte tag and the ciphertext. */
  iv: z.string().min(1).max(64),
  tag: z.string().min(1).max(64),
  data: z.string().min(1).max(8192),
  added: z.string().max(40),
});

/** BPROXY_HOME/secrets.json: where the key is kept, and each secret sealed under it. */
export const SecretStoreSchema = z.strictObject({
  version: z.literal(1),
  key: z.enum(['file', 'secret-tool', 'keychain', 'dpapi']),
  secrets: z.record(SecretNameSchema, Sealed),
});
export type SecretStoreFile = z.infer<typeof SecretStoreSchema>;
export type SealedSecret = z.infer<typeof Sealed>;
