/**
 * The popup's messages to the worker: status, "Share this tab", pairing with a typed code's bootstrap,
 * forgetting the pairing. Only from this extension's own popup page, and never from that page opened in
 * a tab an agent drives (it is not the user's: it may not share or unpair).
 */
import type { ChromeApi } from '../../chrome-api';
import {
  PopupMessageSchema,
  type PairAnswer,
  type ShareAnswer,
  type TabSession,
  type WorkerStatus,
} from '../../common/messages';
import type { WorkerLog } from '../log';
import { fromOwnPage, inDrivenTab } from '../own-pages';
import type { Connection } from './connection';
import type { PairingStore } from './pairing-state';
import type { ShareFn } from './share-tab';

export interface PopupRelayOptions {
  chrome: Pick<ChromeApi, 'runtime'>;
  log: WorkerLog;
  now: () => number;
  pairing: Pick<PairingStore, 'accept' | 'forget'>;
  connection: Pick<Connection, 'restart'>;
  share: ShareFn;
  /** Starts the daemon through the native host and waits for the link (the host link's). */
  startDaemon(): Promise<PairAnswer>;
  isDriven(tabId: number): boolean;
  /** The session that holds a tab now, as the daemon last said. */
  sessionOf(tabId: number): TabSession;
  status(): WorkerStatus;
  /** Every message from the popup is a wake-up too. */
  wake(): void;
}

/** Wires chrome.runtime.onMessage; call in the worker's first turn. */
export function installPopupRelay(opts: PopupRelayOptions): void {
  const { chrome, log } = opts;
  chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!fromOwnPage(sender, chrome.runtime.id, ['/popup.html'])) return undefined;
    // The popup opened as a page in a tab an agent drives is not the user's: it may not share or unpair.
    if (inDrivenTab(sender, (tabId) => opts.isDriven(tabId))) {
      log.warn('popup_in_driven_tab', { tabId: sender.tab?.id });
      return undefined;
    }
    const parsed = PopupMessageSchema.safeParse(message);
    if (!parsed.success) return undefined;
    const msg = parsed.data;
    // The status answers what the worker knows before this message wakes it: the popup polls every
    // second, and a wake-up a second after the last attempt starts a new one, so a status read after it
    // would say 'connecting' on every poll and never show why the last attempt failed.
    if (msg.type === 'status') sendResponse(opts.status());
    opts.wake();
    switch (msg.type) {
      case 'status':
        return undefined;
      case 'share':
        void opts.share(msg.tabId).then((answer) => sendResponse(shareAnswer(answer)));
        return true;
      case 'tab_session':
        sendResponse(opts.sessionOf(msg.tabId));
        return undefined;
      case 'start_daemon':
        void opts.startDaemon().then(sendResponse);
        return true;
      case 'unpair':
        void opts.pairing.forget().then(() => {
          opts.connection.restart();
          sendResponse({ ok: true } satisfies PairAnswer);
        });
        return true;
      case 'pair':
        void pair(opts, msg.bootstrap).then(sendResponse);
        return true; // answered asynchronously
    }
  });
}

function shareAnswer(answer: Awaited<ReturnType<ShareFn>>): ShareAnswer {
  return answer.ok && answer.result.kind === 'share_tab'
    ? { ok: true, session: answer.result.shared.session, tab: answer.result.shared.tab }
    : { ok: false, reason: answer.ok ? 'the daemon answered something else' : answer.reason };
}

async function pair(opts: PopupRelayOptions, bootstrap: unknown): Promise<PairAnswer> {
  const result = await opts.pairing.accept(bootstrap, opts.now());
  if (!result.ok) {
    opts.log.warn('pairing_refused', { reason: result.reason });
    return { ok: false, reason: result.reason };
  }
  opts.log.info('paired', { wsUrl: result.pairing.wsUrl });
  opts.connection.restart();
  return { ok: true };
}
