/**
 * Chrome's "bproxy started debugging this browser" bar, explained once: the first time a session holds
 * the tab the panel serves, a note says what the bar is and what its Cancel does; **Got it** puts it
 * away for good (kept in chrome.storage.local, a yes/no and nothing else).
 */
import type { BrowserSession } from '@bproxy/protocol';
import { byId } from './dom';
import type { PanelLink } from './link';

export interface NoteStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

const SEEN = 'panel.debugBarExplained';

export class DebugNote {
  private readonly note = byId('debug-note');
  private seen: boolean | null = null;

  constructor(
    link: PanelLink,
    private readonly held: () => BrowserSession | undefined,
    private readonly storage: NoteStorage,
  ) {
    link.on((message) => {
      if (message.type === 'sessions') this.render();
    });
    byId('debug-note-ok').addEventListener('click', () => {
      this.seen = true;
      this.render();
      void this.storage.set({ [SEEN]: true }).catch(() => undefined);
    });
    void this.storage.get(SEEN).then(
      (stored) => {
        this.seen = stored[SEEN] === true;
        this.render();
      },
      () => {
        this.seen = false;
        this.render();
      },
    );
  }

  /** Shown while a session holds the tab, until the user said Got it. */
  render(): void {
    this.note.hidden = this.seen !== false || this.held() === undefined;
  }
}
