/**
 * What a child frame runs to say it is there (see frame-probe.ts): it posts the driver's token to its
 * parent. Self-contained, as the extension serializes it for chrome.scripting.
 */
export function postFrameProbe(token: string): boolean {
  if (window.parent === window) return false;
  window.parent.postMessage({ __bproxyFrameProbe: token }, '*');
  return true;
}
