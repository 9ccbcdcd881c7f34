/**
 * chrome.debugger on the tabs bproxy drives (and only those), and the JavaScript dialogs (alert,
 * confirm, prompt, beforeunload) it reveals. A dialog blocks the page's script, so an action that
 * opened one would otherwise hang until its deadline; the only platform signal for a dialog is the
 * debugger's Page.javascriptDialogOpening. The same attachment carries trusted input (trusted-actions.ts).
 * Open dialogs are mirrored to chrome.storage.session so that a restarted worker still refuses actions
 * on a tab with a dialog open. A tab whose debugging bar the user cancelled is not attached again.
 */
import type { ChromeApi, StorageArea } from '../../chrome-api';
import { messageOf } from './errors';
import type { WorkerLog } from '../log';

export interface OpenDialog {
  type: string;
  message: string;
  defaultPrompt?: string;
}

const STORAGE_KEY = 'openDialogs';
const PROTOCOL = '1.3';

/** Whether the debugger is on the tab, and why not when it is not (Chrome's own words). */
export type AttachOutcome = { readonly ok: true } | { readonly ok: false; readonly reason: string };

interface DialogOpeningParams {
  type?: unknown;
  message?: unknown;
  defaultPrompt?: unknown;
}

export class DialogTracker {
  private readonly attached = new Set<number>();
  /** Tabs whose "started debugging this browser" bar the user cancelled: they asked bproxy off. */
  private readonly refused = new Set<number>();
  private readonly open = new Map<number, OpenDialog>();
  private readonly listeners = new Set<(tabId: number, dialog: OpenDialog) => void>();
  private readonly loaded: Promise<void>;
  /** Runs once the debugger is on a tab (the console and network log starts there). */
  afterAttach: (tabId: number) => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly chrome: ChromeApi,
    private readonly session: StorageArea,
    private readonly log: WorkerLog,
  ) {
    this.loaded = this.restore();
  }

  install(): void {
    this.chrome.debugger.onEvent.addListener((source, method, params) => {
      const tabId = source.tabId;
      // A child session's (an out-of-process frame's, frame-sessions.ts) dialog is not the tab's to answer.
      if (tabId === undefined || source.sessionId !== undefined) return;
      if (method === 'Page.javascriptDialogOpening') {
        const p = (params ?? {}) as DialogOpeningParams;
        const dialog: OpenDialog = { type: String(p.type ?? 'alert'), message: String(p.message ?? '') };
        if (typeof p.defaultPrompt === 'string' && p.defaultPrompt !== '')
          dialog.defaultPrompt = p.defaultPrompt;
        this.open.set(tabId, dialog);
        this.log.info('dialog_opened', { tabId, type: dialog.type });
        for (const listener of [...this.listeners]) listener(tabId, dialog);
        void this.persist();
      } else if (method === 'Page.javascriptDialogClosed') {
        this.open.delete(tabId);
        void this.persist();
      }
    });
    this.chrome.debugger.onDetach.addListener((source, reason) => {
      if (source.tabId === undefined || source.sessionId !== undefined) return;
      this.attached.delete(source.tabId);
      if (reason === 'canceled_by_user') this.refused.add(source.tabId);
      this.log.info('debugger_detached', { tabId: source.tabId, reason });
    });
    this.chrome.tabs.onRemoved.addListener((tabId) => {
      this.attached.delete(tabId);
      this.refused.delete(tabId);
      if (this.open.delete(tabId)) void this.persist();
    });
  }

  /**
   * Attaches the debugger (once per tab) so dialogs are seen and trusted input can be sent. Failure is
   * not fatal: chrome:// pages, pages holding another extension's frame and tabs whose debugging bar
   * the user cancelled refuse it; actions there run without dialog detection and with the page
   * script's synthetic input.
   */
  async attach(tabId: number): Promise<AttachOutcome> {
    if (this.attached.has(tabId)) return { ok: true };
    if (this.refused.has(tabId))
      return { ok: false, reason: 'the user cancelled the debugging bar on this tab' };
    try {
      await this.chrome.debugger.attach({ tabId }, PROTOCOL);
    } catch (error) {
      // After a worker restart the attachment survives but our memory of it does not: probe it.
      if (!/already attached/i.test(messageOf(error))) {
        this.log.debug('debugger_attach_failed', { tabId, error: messageOf(error) });
        return { ok: false, reason: messageOf(error) };
      }
    }
    try {
      await this.chrome.debugger.sendCommand({ tabId }, 'Page.enable');
    } catch (error) {
      this.log.debug('debugger_page_enable_failed', { tabId, error: messageOf(error) });
      return { ok: false, reason: messageOf(error) };
    }
    this.attached.add(tabId);
    // As the CDP driver does: keys and clipboard writes reach a tab that is not in front, and its page is
    // visible (not hidden, timers not throttled) while bproxy drives it. Without it input still works in
    // the tab the user looks at.
    await this.chrome.debugger
      .sendCommand({ tabId }, 'Emulation.setFocusEmulationEnabled', { enabled: true })
      .catch((error: unknown) =>
        this.log.debug('focus_emulation_failed', { tabId, error: messageOf(error) }),
      );
    await this.afterAttach(tabId).catch((error: unknown) =>
      this.log.debug('debugger_observe_failed', { tabId, error: messageOf(error) }),
    );
    return { ok: true };
  }

  async ensureAttached(tabId: number): Promise<boolean> {
    return (await this.attach(tabId)).ok;
  }

  /** bproxy no longer drives the tab (a shared tab released): take the debugger off it. */
  async detach(tabId: number): Promise<void> {
    this.refused.delete(tabId);
    if (!this.attached.delete(tabId)) return;
    try {
      await this.chrome.debugger.detach({ tabId });
    } catch (error) {
      this.log.debug('debugger_detach_failed', { tabId, error: messageOf(error) });
    }
  }

  /**
   * The tab stays driven but idle (idle-debugger.ts): the debugger leaves it, and the next action's
   * attach puts it back. Unlike a user's Cancel, nothing is refused afterwards.
   */
  async detachIdle(tabId: number): Promise<void> {
    if (!this.attached.delete(tabId)) return;
    try {
      await this.chrome.debugger.detach({ tabId });
    } catch (error) {
      this.log.debug('debugger_detach_failed', { tabId, error: messageOf(error) });
    }
  }

  attachedTabs(): number[] {
    return [...this.attached];
  }

  isAttached(tabId: number): boolean {
    return this.attached.has(tabId);
  }

  async current(tabId: number): Promise<OpenDialog | null> {
    await this.loaded;
    return this.open.get(tabId) ?? null;
  }

  /** Resolves when a dialog opens in the tab; `cancel` releases the listener. */
  nextOpening(tabId: number): { opened: Promise<OpenDialog>; cancel: () => void } {
    let listener: (id: number, dialog: OpenDialog) => void = () => {};
    const opened = new Promise<OpenDialog>((resolve) => {
      listener = (id, dialog) => {
        if (id !== tabId) return;
        this.listeners.delete(listener);
        resolve(dialog);
      };
      this.listeners.add(listener);
    });
    return { opened, cancel: () => this.listeners.delete(listener) };
  }

  /** Accepts or dismisses the open dialog; returns what it was. */
  async handle(tabId: number, accept: boolean, promptText?: string): Promise<OpenDialog> {
    const dialog = await this.current(tabId);
    if (!dialog) throw new Error('no dialog is open');
    const params: Record<string, unknown> = { accept };
    if (promptText !== undefined) params.promptText = promptText;
    await this.chrome.debugger.sendCommand({ tabId }, 'Page.handleJavaScriptDialog', params);
    this.open.delete(tabId);
    void this.persist();
    return dialog;
  }

  /** Forgets a dialog the platform says is not showing (closed while we were not listening). */
  forget(tabId: number): void {
    if (this.open.delete(tabId)) void this.persist();
  }

  private async restore(): Promise<void> {
    try {
      const got = await this.session.get(STORAGE_KEY);
      const raw = got[STORAGE_KEY];
      if (raw && typeof raw === 'object') {
        for (const [key, value] of Object.entries(raw as Record<string, OpenDialog>)) {
          const tabId = Number(key);
          if (Number.isInteger(tabId) && !this.open.has(tabId)) this.open.set(tabId, value);
        }
      }
    } catch (error) {
      this.log.warn('dialogs_restore_failed', { error: messageOf(error) });
    }
  }

  private async persist(): Promise<void> {
    try {
      await this.session.set({ [STORAGE_KEY]: Object.fromEntries(this.open) });
    } catch (error) {
      this.log.warn('dialogs_persist_failed', { error: messageOf(error) });
    }
  }
}
