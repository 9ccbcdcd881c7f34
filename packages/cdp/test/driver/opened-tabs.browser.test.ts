import { describe, expect, it } from 'vitest';
import type { DriverMessage, TabOpenedMessage } from '@bproxy/protocol';
import { useLaunchedDriver } from '../helpers/driver-fixture';

const f = useLaunchedDriver();

async function textOf(tabId: number): Promise<string> {
  return (await f.daemon.ok<{ text: string }>('text', {}, { tabId })).text;
}

/** Reads the page again until `check` holds, bounded: for what the page shows a moment after an action. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

const opened = (messages: DriverMessage[]): TabOpenedMessage[] =>
  messages.filter((m): m is TabOpenedMessage => m.type === 'tab_opened');

describe(
  'CDP driver: trusted input that a browser grants only to a gesture, and the tabs pages open',
  { timeout: 30_000 },
  () => {
    it('clicks and types as trusted events, never synthetic ones', async () => {
      const tabId = await f.openTab('/trusted.html');
      await f.daemon.ok('click', { target: { selector: '#count' } }, { tabId });
      await f.daemon.ok('click', { target: { selector: '#far' } }, { tabId });
      await f.daemon.ok('type', { text: 'abc', target: { selector: '#typed' } }, { tabId });
      const text = await textOf(tabId);
      expect(text).toContain('clicks: trusted 2, untrusted 0');
      expect(text).toContain('keys: trusted 3, untrusted 0');
    });

    it('drives a popup its page opened: told to the daemon before the answer that names it', async () => {
      const tabId = await f.openTab('/trusted.html');
      const before = f.daemon.messages.length;
      const effects = await f.daemon.ok<{ openedTabs?: { tabId: number; url: string }[] }>(
        'click',
        { target: { selector: '#popup' } },
        { tabId },
      );
      expect(await textOf(tabId)).toContain('popup opened');
      const pushed = opened(f.daemon.messages.slice(before));
      expect(pushed).toEqual([
        { type: 'tab_opened', tabId: expect.any(Number), openerTabId: tabId, url: expect.any(String) },
      ]);
      const popup = pushed[0]?.tabId ?? -1;
      expect(effects.openedTabs).toEqual([{ tabId: popup, url: expect.any(String) }]);
      // The push precedes the answer on the wire.
      const answerAt = f.daemon.messages.findIndex((m, i) => i >= before && m.type === 'response');
      expect(f.daemon.messages.findIndex((m) => m === pushed[0])).toBeLessThan(answerAt);

      expect(await textOf(popup)).toContain('Finish sign-in');
      // The popup closes itself: its click still answers, and the close is pushed.
      await f.daemon.ok('click', { target: { selector: '#finish' } }, { tabId: popup });
      await f.daemon.waitFor(
        () => f.daemon.messages.some((m) => m.type === 'tab_closed' && m.tabId === popup),
        'the popup to close',
      );
      await eventually(
        async () => (await textOf(tabId)).includes('signed in through the popup'),
        'the message',
      );
    });

    it('drives a tab a target=_blank link opened', async () => {
      const tabId = await f.openTab('/trusted.html');
      const effects = await f.daemon.ok<{ openedTabs?: { tabId: number; url: string }[] }>(
        'click',
        { target: { selector: '#blank' } },
        { tabId },
      );
      const tab = effects.openedTabs?.[0];
      expect(tab?.tabId).toEqual(expect.any(Number));
      await eventually(async () => (await textOf(tab?.tabId ?? -1)).includes('target=_blank'), 'the new tab');
    });

    it('writes to the clipboard from a click, which only a real gesture may', async () => {
      const tabId = await f.openTab('/trusted.html');
      await f.daemon.ok('click', { target: { selector: '#copy' } }, { tabId });
      await eventually(async () => !(await textOf(tabId)).includes('nothing yet'), 'the clipboard');
      expect(await textOf(tabId)).toContain('clipboard written');
    });
  },
);
