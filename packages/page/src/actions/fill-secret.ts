/**
 * The page's half of `fill --secret`: a secret goes only into a field whose document is of the origin
 * the user added it for — checked here, in the frame that holds the field, from the isolated world
 * (the page's own scripts cannot patch `location`), before anything is written. A secret once filled
 * is remembered for the document, and every answer the page script gives masks it (dispatch.ts).
 */
import type { PageContext } from '../context';
import { PageError } from '../errors';

/** Throws SECRET_ORIGIN_MISMATCH unless this frame and the field's document are both of `expected`. */
export function checkSecretOrigin(el: Element, expected: string): void {
  const frame = location.origin;
  const field = el.ownerDocument.location?.origin ?? 'null';
  const found = frame !== expected ? frame : field;
  if (frame === expected && field === expected) return;
  throw new PageError(
    'SECRET_ORIGIN_MISMATCH',
    `refusing to fill a secret into ${el.localName}${el.id ? `#${el.id}` : ''}: its frame is ${found}, the secret is for ${expected}`,
    { origin: found, expected },
  );
}

/** Remembers a value filled from a secret, for this document's answers to mask. */
export function rememberSecret(ctx: PageContext, value: string): void {
  if (!ctx.secrets.includes(value)) ctx.secrets.push(value);
}
