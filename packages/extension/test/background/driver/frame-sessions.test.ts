/**
 * A driven tab's frames of another site on its debugger: once the debugger is on the tab, its frame
 * targets are auto-attached as flat child sessions (iframes only, never paused), each gets Page (where
 * its downloads are announced) and attaches its own frames in turn; a refusal is answered in the
 * browser's words. A dialog a child session reports is not taken as the tab's (it is answered on the
 * tab's own session).
 */
import { describe, expect, it } from 'vitest';
import type { DebuggeeTarget } from '../../../src/chrome-api';
import { DialogTracker } from '../../../src/background/driver/dialog-tracker';
import { FrameSessions } from '../../../src/background/driver/frame-sessions';
import { WorkerLog } from '../../../src/background/log';
import { fakeChrome, type FakeEvent } from '../../helpers/fakes';

type OnEvent = FakeEvent<(source: DebuggeeTarget, method: string, params?: unknown) => void>;

function setup(refuse?: string) {
  const chrome = fakeChrome();
  const sent: { target: DebuggeeTarget; method: string; params?: Record<string, unknown> }[] = [];
  chrome.debugger.sendCommand = async (target, method, params) => {
    if (refuse !== undefined) throw new Error(refuse);
    sent.push({ target: { ...target }, method, ...(params ? { params } : {}) });
    return {};
  };
  const sessions = new FrameSessions(chrome, new WorkerLog(50, Date.now, false));
  sessions.install();
  const fire = (source: DebuggeeTarget, method: string, params?: unknown): void =>
    (chrome.debugger.onEvent as OnEvent).fire(source, method, params);
  return { chrome, sent, sessions, fire };
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('frames of another site on a driven tab’s debugger', () => {
  it('auto-attaches the tab’s frame targets flat, and enables Page on each child session, which attaches its own frames', async () => {
    const { sent, sessions, fire } = setup();
    expect(await sessions.attachFrames(7)).toEqual({ ok: true });
    const autoAttach = {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: true,
      filter: [{ type: 'iframe', exclude: false }],
    };
    expect(sent).toEqual([{ target: { tabId: 7 }, method: 'Target.setAutoAttach', params: autoAttach }]);

    fire({ tabId: 7 }, 'Target.attachedToTarget', {
      sessionId: 'S1',
      targetInfo: { type: 'iframe', url: 'http://127.0.0.2:9/' },
    });
    // Not a frame, or no tab: left alone.
    fire({ tabId: 7 }, 'Target.attachedToTarget', { sessionId: 'W1', targetInfo: { type: 'worker' } });
    fire({}, 'Target.attachedToTarget', { sessionId: 'S2', targetInfo: { type: 'iframe' } });
    await settled();
    expect(sent.slice(1)).toEqual([
      { target: { tabId: 7, sessionId: 'S1' }, method: 'Page.enable' },
      { target: { tabId: 7, sessionId: 'S1' }, method: 'Target.setAutoAttach', params: autoAttach },
    ]);
  });

  it('answers a refusal in the browser’s words', async () => {
    const { sessions } = setup('Not allowed');
    expect(await sessions.attachFrames(7)).toEqual({ ok: false, reason: 'Not allowed' });
  });

  it('does not take a dialog a child session reports as the tab’s', async () => {
    const chrome = fakeChrome();
    const dialogs = new DialogTracker(chrome, chrome.session, new WorkerLog(50, Date.now, false));
    dialogs.install();
    const fire = (source: DebuggeeTarget, method: string, params?: unknown): void =>
      (chrome.debugger.onEvent as OnEvent).fire(source, method, params);
    fire({ tabId: 7, sessionId: 'S1' }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'frame' });
    expect(await dialogs.current(7)).toBeNull();
    fire({ tabId: 7 }, 'Page.javascriptDialogOpening', { type: 'alert', message: 'top' });
    expect(await dialogs.current(7)).toEqual({ type: 'alert', message: 'top' });
  });
});
