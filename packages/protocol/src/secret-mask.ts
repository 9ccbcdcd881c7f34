/**
 * Masking the values of the secrets filled so far wherever they would show (zod-free: the page bundle
 * masks its own answers with it, the daemon every answer it sends). A copy: strings that contain a
 * value get it replaced by SECRET_MASK, at any depth, in keys too; nothing else changes.
 */

/** What replaces a used secret's value wherever it would show in an answer. */
export const SECRET_MASK = '[secret]';

/** Fewer characters than this would be masked everywhere they appear: `secret add` refuses them. */
export const SECRET_MIN_LENGTH = 4;
export const SECRET_MAX_LENGTH = 4096;

function maskString(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values)
    if (value.length > 0 && out.includes(value)) out = out.split(value).join(SECRET_MASK);
  return out;
}

/** `data` with every occurrence of `values` masked; `data` itself when there is nothing to mask. */
export function maskSecrets<T>(data: T, values: readonly string[]): T {
  if (values.length === 0) return data;
  // Each value also as it shows inside a JSON or quoted string (a snapshot's value="…"); longest
  // first, so a value that contains another is masked whole.
  const forms = values.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);
  const sorted = [...new Set(forms)].sort((a, b) => b.length - a.length);
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return maskString(value, sorted);
    if (value === null || typeof value !== 'object') return value;
    if (depth > 64) return SECRET_MASK;
    if (Array.isArray(value)) return value.map((v: unknown) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, maskString(key, sorted), {
        value: walk(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return walk(data, 0) as T;
}
