/**
 * Part of the driver-agnostic action suite (see actions.ts): the same click, key and popup give
 * the same events and the same session state through every driver. A page counts clicks and key
 * presses by whether the browser made them (isTrusted); what a browser grants only to a real gesture —
 * a popup from window.open, a clipboard write — works; tabs a page opens (window.open, target=_blank)
 * join the session under the next handle, and a popup that closes itself hands the session back to its
 * opener.
 */
import { expect, it } from 'vitest';
import { until } from '../wait';
import type { Agent } from '../agent';

const T = 45_000;

interface Effects {
  url: string;
  title: string;
  navigated: boolean;
  input?: string;
  openedTabs?: { tab: string; url: string }[];
  notes?: string[];
}

interface Status {
  sessions: { session: string; tab: string | null; tabs: string[] }[];
}

export function defineGestureTests(a: () => Agent): void {
  const click = (s: string, handle: string): Promise<Effects> =>
    a().cli.ok<Effects>(['click', '-s', s, handle]);
  /** The daemon's view of the session, through a call that does not consume its notes. */
  const sessionOf = async (s: string): Promise<Status['sessions'][number] | undefined> =>
    (await a().cli.ok<Status>(['debug', 'status'])).sessions.find((x) => x.session === s);

  it(
    'clicks and key presses reach the page as trusted events, none synthetic',
    async () => {
      const s = await a().session('trusted.html');
      const [count, far, typed] = await a().handles(s, 'Count', 'Far button', 'Typed');
      const answers = [
        await click(s, count),
        await click(s, far),
        await a().cli.ok<Effects>(['type', '-s', s, 'abc', '--into', typed]),
        await a().cli.ok<Effects>(['press', '-s', s, 'Enter']),
        await a().cli.ok<Effects>(['hover', '-s', s, count]),
      ];
      expect(answers.map((answer) => answer.input)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      const text = await a().text(s);
      expect(text).toContain('clicks: trusted 2, untrusted 0');
      expect(text).toContain('keys: trusted 4, untrusted 0');
      await a().close(s);
    },
    T,
  );

  it(
    'a popup a click opens joins the session as t2, and when it closes itself the session is back on t1',
    async () => {
      const s = await a().session('trusted.html');
      const opened = await click(s, await a().element(s, 'Open popup'));
      expect(opened.openedTabs).toEqual([{ tab: 't2', url: a().url('popup.html') }]);
      expect(await a().text(s)).toContain('popup opened');
      const listed = await a().cli.ok<{ tabs: { tab: string; bound: boolean }[] }>(['tab', 'list', '-s', s]);
      expect(listed.tabs.map((t) => [t.tab, t.bound])).toEqual([
        ['t1', true],
        ['t2', false],
      ]);

      await a().cli.ok(['session', 'bind', '-s', s, '--tab', 't2']);
      const finished = await click(s, await a().element(s, 'Finish sign-in'));
      await until('the session to go back to t1', async () => (await sessionOf(s))?.tab === 't1');
      expect((await sessionOf(s))?.tabs).toEqual(['t1']);
      // Told in the answer of the click that closed it, or else in the next one.
      const next = await a().cli.ok<{ text: string; notes?: string[] }>(['text', '-s', s]);
      expect([...(finished.notes ?? []), ...(next.notes ?? [])]).toEqual([
        't2 was closed in the browser; the session is back on t1, the tab that opened it',
      ]);
      await until('the opener to hear from the popup', async () =>
        (await a().text(s)).includes('signed in through the popup'),
      );
      await a().close(s);
    },
    T,
  );

  it(
    'a target=_blank link opens a tab that joins the session and can be driven',
    async () => {
      const s = await a().session('trusted.html');
      const opened = await click(s, await a().link(s, 'Open in a new tab'));
      expect(opened.openedTabs).toEqual([{ tab: 't2', url: a().url('opened.html') }]);
      await a().cli.ok(['session', 'bind', '-s', s, '--tab', 't2']);
      await a().cli.ok(['wait', '-s', s, '--text', 'target=_blank']);
      const closed = await a().cli.ok<{ closedTabs: string[] }>(['session', 'close', '-s', s]);
      expect(closed.closedTabs.sort()).toEqual(['t1', 't2']);
    },
    T,
  );

  it(
    'a clipboard write from a click succeeds',
    async () => {
      const s = await a().session('trusted.html');
      await click(s, await a().element(s, 'Copy'));
      await a().cli.ok(['wait', '-s', s, '--text', 'clipboard written']);
      await a().close(s);
    },
    T,
  );
}
