/**
 * The service worker's entry: the platform's chrome.*, WebSocket and image decoder handed to
 * startWorker(). Zod is told not to try code generation, which the extension's CSP forbids.
 */
import { z } from 'zod';
import { platformChrome } from '../chrome-api';
import { platformSocketFactory } from './daemon/socket';
import { startWorker } from './worker';

z.config({ jitless: true });

async function imageSize(base64: string, mimeType: string): Promise<{ width: number; height: number }> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: mimeType }));
  const size = { width: bitmap.width, height: bitmap.height };
  bitmap.close();
  return size;
}

/** "chrome", "edge", "brave", … from the browser's brand list; the daemon makes names unique. */
function clientName(): string {
  const data = (navigator as Navigator & { userAgentData?: { brands?: { brand: string }[] } }).userAgentData;
  const brands = (data?.brands ?? []).map((b) => b.brand.toLowerCase());
  for (const [needle, name] of [
    ['edge', 'edge'],
    ['brave', 'brave'],
    ['opera', 'opera'],
    ['vivaldi', 'vivaldi'],
    ['google chrome', 'chrome'],
    ['chromium', 'chromium'],
  ] as const) {
    if (brands.some((b) => b.includes(needle))) return name;
  }
  return 'chrome';
}

const worker = startWorker({
  chrome: platformChrome(),
  socketFactory: platformSocketFactory,
  fetch: (url, init) => fetch(url, init),
  imageSize,
  clientName,
  userAgent: navigator.userAgent,
});

// For people (and tests) reading the worker in DevTools: `bproxyStatus()`.
(globalThis as { bproxyStatus?: typeof worker.status }).bproxyStatus = worker.status;
