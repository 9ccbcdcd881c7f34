/**
 * Local errors of the CDP layer. They never cross the daemon wire: the driver maps them to catalogue
 * codes (a closed connection becomes BROWSER_DISCONNECTED). Match on the class, never on the message.
 */

/** The browser answered a command with an error. */
export class CdpProtocolError extends Error {
  override readonly name = 'CdpProtocolError';
  constructor(
    readonly method: string,
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

/** The connection to the browser is gone; every pending and later call fails with this. */
export class CdpClosedError extends Error {
  override readonly name = 'CdpClosedError';
}

/** A command got no answer in time. */
export class CdpTimeoutError extends Error {
  override readonly name = 'CdpTimeoutError';
}

/** Chromium's wording when a call targets a document that a navigation replaced. */
export function isContextGoneError(error: unknown): boolean {
  if (!(error instanceof CdpProtocolError)) return false;
  return /Execution context was destroyed|Cannot find context with specified id|Inspected target navigated or closed|Cannot find default execution context/i.test(
    error.message,
  );
}
