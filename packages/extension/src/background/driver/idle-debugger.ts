/**
 * The debugger leaves a driven tab that no action has used for a while, so the user's Chrome does not
 * show "bproxy started debugging this browser" over a tab an idle session merely holds; the next action
 * on the tab attaches it again before it runs (the executor asks `resume`), so what the action does is
 * unchanged. A tab with a dialog open keeps the debugger: that dialog is what the next action must hear
 * of. The period comes from the daemon's welcome (BPROXY_DEBUGGER_IDLE); none: the debugger stays.
 * While a tab is idle, its console messages and requests are not recorded (docs/security.md says so).
 */
import type { WorkerLog } from '../log';
import type { DialogTracker } from './dialog-tracker';

type Timer = ReturnType<typeof setTimeout>;

export class IdleDebugger {
  private idleMs: number | null = null;
  private readonly busy = new Map<number, number>();
  private readonly timers = new Map<number, Timer>();
  /** Tabs the debugger left for idleness: the next action attaches again first. */
  private readonly rested = new Set<number>();

  constructor(
    private readonly dialogs: Pick<DialogTracker, 'isAttached' | 'current' | 'detachIdle' | 'ensureAttached'>,
    private readonly isDriven: (tabId: number) => boolean,
    private readonly log: WorkerLog,
  ) {}

  /** The daemon's period (null: keep the debugger on driven tabs); applies to tabs from now on. */
  setPeriod(idleMs: number | null): void {
    this.idleMs = idleMs;
    if (idleMs === null) for (const tabId of [...this.timers.keys()]) this.cancel(tabId);
  }

  /** An action on the tab starts: no detaching under it, and a rested tab gets the debugger back. */
  async begin(tabId: number): Promise<void> {
    this.busy.set(tabId, (this.busy.get(tabId) ?? 0) + 1);
    this.cancel(tabId);
    if (!this.rested.delete(tabId)) return;
    const back = await this.dialogs.ensureAttached(tabId);
    this.log.info('debugger_idle_reattached', { tabId, ok: back });
  }

  /** The action ended: the idle period starts once no other action runs on the tab. */
  end(tabId: number): void {
    const left = (this.busy.get(tabId) ?? 1) - 1;
    if (left > 0) {
      this.busy.set(tabId, left);
      return;
    }
    this.busy.delete(tabId);
    this.schedule(tabId);
  }

  /** A tab just opened and attached outside any action on it (tab.open): its idle period starts. */
  touch(tabId: number): void {
    if (!this.busy.has(tabId)) this.schedule(tabId);
  }

  /** The tab is no longer driven (released, closed): nothing to do for it any more. */
  forget(tabId: number): void {
    this.cancel(tabId);
    this.busy.delete(tabId);
    this.rested.delete(tabId);
  }

  private schedule(tabId: number): void {
    const idleMs = this.idleMs;
    if (idleMs === null) return;
    this.cancel(tabId);
    this.timers.set(
      tabId,
      setTimeout(() => {
        this.timers.delete(tabId);
        void this.rest(tabId);
      }, idleMs),
    );
  }

  private async rest(tabId: number): Promise<void> {
    if (this.busy.has(tabId) || !this.isDriven(tabId) || !this.dialogs.isAttached(tabId)) return;
    if ((await this.dialogs.current(tabId)) !== null) return;
    // An action may have started while the dialog state was read.
    if (this.busy.has(tabId)) return;
    this.rested.add(tabId);
    await this.dialogs.detachIdle(tabId);
    this.log.info('debugger_idle_detached', { tabId });
  }

  private cancel(tabId: number): void {
    const timer = this.timers.get(tabId);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(tabId);
  }
}
