/**
 * The out-of-process frames of a driven tab (frames from another site, which Chrome runs in another
 * renderer) on the tab's debugger. What such a frame does is announced on its own target, not on the
 * tab's: a download it starts (`Page.downloadWillBegin`) never reaches the tab's debugger session, so
 * without this it would count as the user's download. Once the debugger is on a tab, the tab's session
 * auto-attaches its frame targets as flat child sessions (chrome.debugger: `{ tabId, sessionId }`) and
 * Page is enabled on each, nested frames too; their events arrive with the tab's id and the child's
 * session id. Only what a child session announces about downloads is taken from it (downloads.ts);
 * the tab's other listeners keep to the tab's own session (dialogs are answered there).
 */
import type { ChromeApi, DebuggeeTarget } from '../../chrome-api';
import type { WorkerLog } from '../log';
import { messageOf } from './errors';

/** Frame targets only: no workers, nothing paused waiting for us. */
const AUTO_ATTACH = {
  autoAttach: true,
  waitForDebuggerOnStart: false,
  flatten: true,
  filter: [{ type: 'iframe', exclude: false }],
};

export class FrameSessions {
  constructor(
    private readonly chrome: ChromeApi,
    private readonly log: WorkerLog,
  ) {}

  install(): void {
    this.chrome.debugger.onEvent.addListener((source, method, params) => {
      if (method !== 'Target.attachedToTarget' || source.tabId === undefined) return;
      const p = (params ?? {}) as { sessionId?: unknown; targetInfo?: { type?: unknown } };
      if (typeof p.sessionId !== 'string' || p.targetInfo?.type !== 'iframe') return;
      void this.enable({ tabId: source.tabId, sessionId: p.sessionId });
    });
  }

  /**
   * Right after the debugger is attached to a driven tab: its frame targets, present and to come, are
   * attached. Whether the browser allowed it is returned (its own words when not).
   */
  async attachFrames(tabId: number): Promise<{ ok: true } | { ok: false; reason: string }> {
    try {
      await this.chrome.debugger.sendCommand({ tabId }, 'Target.setAutoAttach', AUTO_ATTACH);
      return { ok: true };
    } catch (error) {
      this.log.warn('frame_sessions_refused', { tabId, error: messageOf(error) });
      return { ok: false, reason: messageOf(error) };
    }
  }

  private async enable(target: DebuggeeTarget): Promise<void> {
    try {
      await this.chrome.debugger.sendCommand(target, 'Page.enable');
      await this.chrome.debugger.sendCommand(target, 'Target.setAutoAttach', AUTO_ATTACH);
    } catch (error) {
      this.log.debug('frame_session_failed', { tabId: target.tabId, error: messageOf(error) });
    }
  }
}
