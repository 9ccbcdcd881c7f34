import type { DriverDownloadMessage } from '@bproxy/protocol';
import { describe, expect, it } from 'vitest';
import { CdpConnection } from '../../src/cdp/connection';
import type { CdpTransport } from '../../src/cdp/transport';
import { BrowserDownloads } from '../../src/driver/downloads';
import type { PageTab } from '../../src/driver/page-tab';

type Report = Omit<DriverDownloadMessage, 'type'>;

/** A browser stand-in: answers every command at once, records what was sent, and delivers events. */
function fakeBrowser(): {
  transport: CdpTransport;
  sent: string[];
  event(method: string, params: unknown): void;
} {
  const sent: string[] = [];
  const transport: CdpTransport = {
    send(message: string) {
      const parsed = JSON.parse(message) as { id: number; method: string };
      sent.push(parsed.method);
      queueMicrotask(() => transport.onmessage?.(JSON.stringify({ id: parsed.id, result: {} })));
    },
    close() {
      transport.onclose?.('closed');
    },
  };
  return {
    transport,
    sent,
    event: (method, params) => transport.onmessage?.(JSON.stringify({ method, params })),
  };
}

async function downloadsOf(maxBytes: number) {
  const browser = fakeBrowser();
  const reports: Report[] = [];
  const tab = { tabId: 7 } as PageTab;
  const downloads = new BrowserDownloads(
    new CdpConnection(browser.transport),
    { dir: '/staging', maxBytes },
    (frameId) => (frameId === 'main' ? tab : undefined),
    (report) => reports.push(report),
  );
  await downloads.start(1000);
  const begin = (guid: string, name: string) =>
    browser.event('Browser.downloadWillBegin', {
      frameId: 'main',
      guid,
      url: `http://127.0.0.1/${name}`,
      suggestedFilename: name,
    });
  const progress = (guid: string, state: string, receivedBytes: number, totalBytes: number) =>
    browser.event('Browser.downloadProgress', { guid, state, receivedBytes, totalBytes });
  return { sent: browser.sent, reports, begin, progress };
}

describe("the launched browser's downloads", () => {
  it('reports a download of a refused type only once the browser says it ended, even when it completed before the cancel landed', async () => {
    const d = await downloadsOf(100_000);
    d.begin('g-exe', 'setup.exe');
    expect(d.sent).toContain('Browser.cancelDownload');
    d.progress('g-exe', 'inProgress', 1024, 1024);
    // Its file may still be written or renamed: the daemon would remove it too early.
    expect(d.reports).toEqual([]);
    d.progress('g-exe', 'completed', 1024, 1024);
    expect(d.reports.map((r) => [r.guid, r.state, r.bytes])).toEqual([['g-exe', 'type_refused', 0]]);
  });

  it('reports a download over the cap as too large once the browser says it was cancelled, with the bytes it had when stopped', async () => {
    const d = await downloadsOf(100_000);
    d.begin('g-big', 'archive.bin');
    expect(d.reports.map((r) => r.state)).toEqual(['started']);
    d.progress('g-big', 'inProgress', 150_000, 300_000);
    expect(d.sent).toContain('Browser.cancelDownload');
    expect(d.reports.map((r) => r.state)).toEqual(['started']);
    d.progress('g-big', 'inProgress', 200_000, 300_000);
    d.progress('g-big', 'canceled', 0, 300_000);
    expect(d.reports.map((r) => [r.guid, r.state, r.bytes])).toEqual([
      ['g-big', 'started', 0],
      ['g-big', 'too_large', 150_000],
    ]);
  });

  it('reports a download within the cap when it completes', async () => {
    const d = await downloadsOf(100_000);
    d.begin('g-ok', 'report.csv');
    d.progress('g-ok', 'inProgress', 1000, 2048);
    d.progress('g-ok', 'completed', 2048, 2048);
    expect(d.sent).not.toContain('Browser.cancelDownload');
    expect(d.reports.map((r) => [r.state, r.bytes])).toEqual([
      ['started', 0],
      ['completed', 2048],
    ]);
  });
});
