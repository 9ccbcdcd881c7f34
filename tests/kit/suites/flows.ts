/**
 * The second half of the driver-agnostic action suite (see actions.ts): navigation and
 * history, tab management, the element-handle errors (stale after navigation, from another tab),
 * the CAPTCHA pause and resume, and JavaScript dialogs answered both ways.
 */
import { expect, it } from 'vitest';
import type { Agent } from '../agent';

const T = 45_000;

interface Navigated {
  url: string;
  title: string;
}

export function defineFlowTests(a: () => Agent): void {
  it(
    'navigates, goes back and forward, and reload starts the page afresh',
    async () => {
      const s = await a().session('counter.html');
      await a().cli.ok(['click', '-s', s, '--selector', '#inc']);
      expect(await a().text(s)).toContain('Count: 1');
      const forms = await a().cli.ok<Navigated>(['navigate', '-s', s, a().url('forms.html')]);
      expect(forms).toMatchObject({ url: a().url('forms.html'), title: 'Forms' });
      expect(await a().cli.ok<Navigated>(['back', '-s', s])).toMatchObject({
        url: a().url('counter.html'),
        title: 'Counter',
      });
      expect(await a().cli.ok<Navigated>(['forward', '-s', s])).toMatchObject({ title: 'Forms' });
      expect(await a().cli.ok<Navigated>(['back', '-s', s])).toMatchObject({ title: 'Counter' });
      // Back may restore the page from the back-forward cache with its count: reload never does.
      await a().cli.ok(['click', '-s', s, '--selector', '#inc']);
      expect(await a().text(s)).not.toContain('Count: 0');
      expect(await a().cli.ok<Navigated>(['reload', '-s', s])).toMatchObject({ title: 'Counter' });
      expect(await a().text(s)).toContain('Count: 0');
      await a().close(s);
    },
    T,
  );

  it(
    'follows a link handle, then refuses handles of the old page as stale',
    async () => {
      const s = await a().session('ext-form.html');
      const next = await a().link(s, 'Next page');
      const name = await a().element(s, 'Name');
      const clicked = await a().cli.ok<{ navigated: boolean; url: string; title: string }>([
        'click',
        '-s',
        s,
        next,
      ]);
      expect(clicked).toMatchObject({ navigated: true, title: 'Extension done' });
      expect(await a().text(s)).toContain('query: ?via=link');
      expect(await a().cli.failCode(['click', '-s', s, next])).toBe('ELEMENT_HANDLE_STALE');
      expect(await a().cli.failCode(['fill', '-s', s, name, 'x'])).toBe('ELEMENT_HANDLE_STALE');

      // A navigation by command makes the handles of the page it left stale too.
      const back = await a().link(s, 'Back to the form');
      await a().cli.ok(['navigate', '-s', s, a().url('counter.html')]);
      expect(await a().cli.failCode(['click', '-s', s, back])).toBe('ELEMENT_HANDLE_STALE');
      await a().close(s);
    },
    T,
  );

  it(
    'refuses a handle minted in another tab of the session',
    async () => {
      const s = await a().session('counter.html');
      const first = await a().element(s, 'Increment');
      const second = await a().openTab(s, 'shadow.html');
      expect(second.tab).toBe('t2');
      expect(await a().cli.failCode(['click', '-s', s, first])).toBe('ELEMENT_HANDLE_SCOPE_MISMATCH');
      await a().cli.ok(['session', 'bind', '-s', s, '--tab', 't1']);
      await a().cli.ok(['click', '-s', s, first]);
      expect(await a().text(s)).toContain('Count: 1');
      await a().close(s);
    },
    T,
  );

  it(
    "lists, pins, unpins and closes the session's tabs, and session close closes the rest",
    async () => {
      const s = await a().session('counter.html');
      await a().openTab(s, 'forms.html');
      type Tab = { tab: string; url: string; pinned: boolean; bound: boolean };
      const listed = await a().cli.ok<{ tabs: Tab[] }>(['tab', 'list', '-s', s]);
      expect(listed.tabs.map((t) => [t.tab, t.bound])).toEqual([
        ['t1', false],
        ['t2', true],
      ]);
      expect(await a().cli.ok(['tab', 'pin', '-s', s, 't1'])).toMatchObject({ tab: 't1', pinned: true });
      const pinned = await a().cli.ok<{ tabs: Tab[] }>(['tab', 'list', '-s', s]);
      expect(pinned.tabs.find((t) => t.tab === 't1')?.pinned).toBe(true);
      expect(await a().cli.ok(['tab', 'unpin', '-s', s, 't1'])).toMatchObject({ tab: 't1', pinned: false });
      expect(await a().cli.ok(['tab', 'close', '-s', s])).toMatchObject({ tab: 't2', closed: true });
      const after = await a().cli.ok<{ tabs: Tab[] }>(['tab', 'list', '-s', s]);
      expect(after.tabs.map((t) => t.url)).toEqual([a().url('counter.html')]);
      expect(await a().cli.failCode(['text', '-s', s])).toBe('TAB_NOT_FOUND');

      const closed = await a().cli.ok<{ closedTabs: string[] }>(['session', 'close', '-s', s]);
      expect(closed.closedTabs).toEqual(['t1']);
      expect(await a().cli.failCode(['tab', 'list', '-s', s])).toBe('SESSION_NOT_FOUND');
    },
    T,
  );

  it(
    'pauses the session on a CAPTCHA widget, refuses actions until resumed, then works again',
    async () => {
      const s = await a().session('forms.html');
      const paused = await a().cli.fail(['navigate', '-s', s, a().url('captcha.html')]);
      expect(paused.code).toBe('HUMAN_REQUIRED');
      expect(paused.message).toMatch(/captcha/i);
      expect(await a().cli.failCode(['text', '-s', s])).toBe('HUMAN_REQUIRED');
      expect(await a().cli.failCode(['click', '-s', s, '--selector', 'button'])).toBe('HUMAN_REQUIRED');
      const sessions = await a().cli.ok<{ sessions: { session: string; state: string }[] }>([
        'session',
        'list',
      ]);
      expect(sessions.sessions.find((x) => x.session === s)?.state).toBe('paused');

      const resumed = await a().cli.ok<{ paused: boolean; state: string }>(['session', 'resume', '-s', s]);
      expect(resumed).toMatchObject({ paused: false, state: 'bound' });
      // The widget is still there (nobody solved it here): moving on is what a resumed agent does.
      const moved = await a().cli.ok<Navigated>(['navigate', '-s', s, a().url('counter.html')]);
      expect(moved.title).toBe('Counter');
      await a().cli.ok(['click', '-s', s, '--selector', '#inc']);
      expect(await a().text(s)).toContain('Count: 1');
      await a().close(s);
    },
    T,
  );

  it(
    'holds a resume on a sign-in page until the tab navigates, and takes a set-password form for no wall',
    async () => {
      // Two password fields set a password: nothing to pause for.
      const s = await a().session('set-password.html');
      const snapshot = await a().cli.ok<{ snapshot: string }>(['snapshot', '-s', s]);
      expect(snapshot.snapshot).toContain('Enter the password');
      const [first, second, submit] = await a().handles(s, 'Password', 'Repeat password', 'Submit');
      await a().cli.ok(['fill', '-s', s, first, 'x7']);
      await a().cli.ok(['fill', '-s', s, second, 'x7']);
      expect(await a().cli.ok<Navigated>(['click', '-s', s, submit])).toMatchObject({ title: 'Submitted' });

      // A page that is only a sign-in form pauses the session; once resumed, the agent can read and use it.
      const paused = await a().cli.fail(['navigate', '-s', s, a().url('signin.html')]);
      expect(paused.code).toBe('HUMAN_REQUIRED');
      expect(paused.message).toMatch(/sign-in form/);
      expect(await a().cli.failCode(['snapshot', '-s', s])).toBe('HUMAN_REQUIRED');
      await a().cli.ok(['session', 'resume', '-s', s]);
      expect((await a().cli.ok<{ snapshot: string }>(['snapshot', '-s', s])).snapshot).toContain('Sign in');
      const [email, password, login] = await a().handles(s, 'Email', 'Password', 'Log in');
      await a().cli.ok(['fill', '-s', s, email, 'ada@example.org']);
      await a().cli.ok(['fill', '-s', s, password, 'secret']);
      await a().cli.ok(['click', '-s', s, login]);
      expect(await a().text(s)).toContain('Signed in as ada@example.org');

      // The resume was for that document: loading the page again pauses again.
      expect(await a().cli.failCode(['reload', '-s', s])).toBe('HUMAN_REQUIRED');
      expect(await a().cli.failCode(['text', '-s', s])).toBe('HUMAN_REQUIRED');
      await a().cli.ok(['session', 'resume', '-s', s]);
      await a().close(s);
    },
    T,
  );

  it(
    'reports dialogs and answers them with accept, dismiss and prompt text',
    async () => {
      const s = await a().session('dialog.html');
      const confirm = await a().cli.ok<{ dialog?: { type: string; message: string } }>([
        'click',
        '-s',
        s,
        '--selector',
        '#confirm',
      ]);
      expect(confirm.dialog).toEqual({ type: 'confirm', message: 'Are you sure?' });
      expect(await a().cli.failCode(['text', '-s', s])).toBe('DIALOG_OPEN');
      expect(await a().cli.ok(['dialog', '-s', s, 'accept'])).toMatchObject({
        type: 'confirm',
        accepted: true,
      });
      expect(await a().text(s)).toContain('confirm: true');

      await a().cli.ok(['click', '-s', s, '--selector', '#confirm']);
      expect(await a().cli.ok(['dialog', '-s', s, 'dismiss'])).toMatchObject({ accepted: false });
      expect(await a().text(s)).toContain('confirm: false');

      await a().cli.ok(['click', '-s', s, '--selector', '#prompt']);
      await a().cli.ok(['dialog', '-s', s, 'accept', '--text', 'Ada']);
      expect(await a().text(s)).toContain('prompt: Ada');

      const alert = await a().cli.ok<{ dialog?: { type: string } }>([
        'click',
        '-s',
        s,
        '--selector',
        '#alert',
      ]);
      expect(alert.dialog?.type).toBe('alert');
      await a().cli.ok(['dialog', '-s', s, 'dismiss']);
      expect(await a().cli.failCode(['dialog', '-s', s, 'accept'])).toBe('NO_DIALOG');
      expect(await a().text(s)).toContain('Dialogs');
      await a().close(s);
    },
    T,
  );
}
