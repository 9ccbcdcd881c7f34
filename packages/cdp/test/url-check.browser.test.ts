/**
 * The CDP driver's own check of the URLs it loads, whatever its daemon sent: navigate and tab.open
 * answer URL_NOT_ALLOWED for every URL but http:, https: and about:blank without asking the browser
 * (no tab opens); file: passes only for a launched browser started with allowFileUrls.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { useLaunchedDriver } from './helpers/driver-fixture';

const dir = mkdtempSync(join(tmpdir(), 'bproxy-cdp-file-'));
writeFileSync(join(dir, 'note.html'), '<title>Note</title><p>local words 5be1</p>');
const file = pathToFileURL(join(dir, 'note.html')).href;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a launched CDP driver, by default', { timeout: 30_000 }, () => {
  const f = useLaunchedDriver();

  it('refuses file:, data:, view-source: and other schemes on tab.open and navigate, opening no tab', async () => {
    const tabId = await f.openTab('/counter.html');
    const opened = f.daemon.messages.length;
    for (const url of [
      file,
      'data:text/html,<p>x</p>',
      'view-source:https://example.org/',
      'chrome://version',
    ]) {
      const open = await f.daemon.request('tab.open', { url });
      expect(open.ok === false && open.error.code, `tab.open ${url}`).toBe('URL_NOT_ALLOWED');
      const nav = await f.daemon.request('navigate', { url }, { tabId });
      expect(nav.ok === false && nav.error.code, `navigate ${url}`).toBe('URL_NOT_ALLOWED');
    }
    expect(f.daemon.messages.slice(opened).filter((m) => m.type === 'navigation')).toEqual([]);
    const text = await f.daemon.ok<{ text: string; url: string }>('text', {}, { tabId });
    expect(text.url).toBe(f.server.url('/counter.html'));
  });
});

describe('a launched CDP driver started with allowFileUrls', { timeout: 30_000 }, () => {
  const f = useLaunchedDriver({ allowFileUrls: true });

  it('opens a file: URL, and still refuses data:', async () => {
    const opened = await f.daemon.ok<{ tabId: number; title: string }>('tab.open', { url: file });
    expect(opened.title).toBe('Note');
    const text = await f.daemon.ok<{ text: string }>('text', {}, { tabId: opened.tabId });
    expect(text.text).toContain('local words 5be1');
    const data = await f.daemon.request('navigate', { url: 'data:text/html,x' }, { tabId: opened.tabId });
    expect(data.ok === false && data.error.code).toBe('URL_NOT_ALLOWED');
  });
});
