/**
 * How a failed action becomes a catalogue error. Handlers throw the kit's DriverFailure for errors
 * they mean; local errors of the CDP layer are mapped here by class, never by message.
 */
import { DriverFailure } from '@bproxy/driver';
import { makeError, type BproxyError } from '@bproxy/protocol';
import { CdpClosedError, CdpProtocolError, CdpTimeoutError } from '../cdp/errors';
import { TabGoneError } from './page-tab';

export function toBproxyError(error: unknown, action: string): BproxyError {
  if (error instanceof DriverFailure) return error.error;
  if (error instanceof CdpClosedError)
    return makeError('BROWSER_DISCONNECTED', `${action}: the browser went away (${error.message})`);
  if (error instanceof TabGoneError)
    return makeError('TAB_NOT_FOUND', `${action}: the tab was closed (${error.message})`);
  if (error instanceof CdpTimeoutError) return makeError('DRIVER_ERROR', `${action}: ${error.message}`);
  if (error instanceof CdpProtocolError)
    return makeError('DRIVER_ERROR', `${action}: the browser refused ${error.message}`.slice(0, 4000));
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return makeError('DRIVER_ERROR', `${action}: ${message}`.slice(0, 4000));
}
