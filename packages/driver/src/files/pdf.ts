/**
 * pdf, the same in both drivers: Page.printToPDF over the driver's CDP channel (the CDP session, or
 * chrome.debugger in the extension), with the paper, orientation and background asked for. The driver
 * answers the bytes; the daemon writes them where it checked it may.
 */
import { PAPER_SIZES, type ForwardedParams } from '@bproxy/protocol';

/** Page.printToPDF's params for a pdf request (letter, portrait, no background unless asked). */
export function printToPdfParams(params: ForwardedParams<'pdf'>): Record<string, unknown> {
  const [width, height] = PAPER_SIZES[params.paper ?? 'letter'];
  return {
    paperWidth: width,
    paperHeight: height,
    landscape: params.landscape === true,
    printBackground: params.background === true,
  };
}
