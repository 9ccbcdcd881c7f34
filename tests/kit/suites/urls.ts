/**
 * The URLs an agent may open, on every driver (part of the action suite, see actions.ts): local
 * files, data:, view-source: and the extension's own pages are refused with URL_NOT_ALLOWED at once —
 * not at the deadline — and the browser is never asked: no tab opens, the bound tab stays where it
 * was, and nothing of the file (the daemon token here) can be read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_EXTENSION_ID } from '@bproxy/protocol';
import { expect, it } from 'vitest';
import type { Agent } from '../agent';

const T = 45_000;
/** Well under the request deadline (30 s), which is what data: and view-source: used to take. */
const PROMPT_MS = 10_000;

interface TabList {
  tabs: { tab: string; url: string }[];
}

export function defineUrlTests(a: () => Agent): void {
  it(
    'refuses file:, data:, view-source: and the extension’s own pages at once, and the browser reads nothing',
    async () => {
      const s = await a().session('counter.html');
      const home = a().cli.home;
      const token = readFileSync(join(home, 'token'), 'utf8').trim();
      const browser = a().env.browser;
      const refused: string[][] = [
        ['tab', 'open', '-s', s, '--url', 'file:///etc/hostname', '--browser', browser],
        ['navigate', '-s', s, `file://${join(home, 'token')}`],
        ['navigate', '-s', s, 'data:text/html,<h1 id=x>data page</h1>'],
        ['tab', 'open', '-s', s, '--url', 'data:text/html,<h1>data page</h1>', '--browser', browser],
        ['navigate', '-s', s, `view-source:${a().url('counter.html')}`],
        ['navigate', '-s', s, `chrome-extension://${DEFAULT_EXTENSION_ID}/panel.html?tab=1`],
        ['tab', 'open', '-s', s, '--url', `chrome-extension://${DEFAULT_EXTENSION_ID}/popup.html`],
        ['navigate', '-s', s, 'javascript:document.title="x"'],
      ];
      for (const args of refused) {
        const started = Date.now();
        const error = await a().cli.fail(args);
        expect(error.code, args.join(' ')).toBe('URL_NOT_ALLOWED');
        expect(Date.now() - started, args.join(' ')).toBeLessThan(PROMPT_MS);
      }
      const list = await a().cli.ok<TabList>(['tab', 'list', '-s', s]);
      expect(list.tabs.map((t) => t.url)).toEqual([a().url('counter.html')]);
      const text = await a().text(s);
      expect(text).toContain('Count: 0');
      expect(text).not.toContain(token);

      // A navigate that would open the session's first tab opens none.
      const empty = (await a().cli.ok<{ session: string }>(['session', 'create', '--pacing', 'fast']))
        .session;
      expect(await a().cli.failCode(['navigate', '-s', empty, `file://${join(home, 'token')}`])).toBe(
        'URL_NOT_ALLOWED',
      );
      expect((await a().cli.ok<TabList>(['tab', 'list', '-s', empty])).tabs).toEqual([]);
      await a().cli.ok(['session', 'close', '-s', empty]);
      await a().close(s);
    },
    T,
  );
}
