/**
 * Activity: a live feed of what agents do in this browser, newest first — time, session, tab, action,
 * target (handle and name), outcome, pacing waits, pauses and resumes — pushed by the daemon through
 * the worker. On open it replays what the daemon kept and marks where entries were dropped. Filter: this
 * tab or all tabs; a click on an entry brings its tab to the front.
 */
import type { ActivityEntry } from '@bproxy/protocol';
import { byId, el } from './dom';
import type { PanelLink } from './link';

const MAX_SHOWN = 500;

function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function describe(entry: ActivityEntry): { what: string; detail: string } {
  switch (entry.kind) {
    case 'pause':
      return { what: 'paused — waiting for you', detail: entry.reason ?? '' };
    case 'resume':
      return { what: 'resumed', detail: '' };
    case 'close':
      return { what: 'session closed', detail: '' };
    case 'action': {
      const target = entry.target
        ? ` ${entry.target.ref}${entry.target.name !== undefined ? ` ${entry.target.name}` : ''}`
        : '';
      const outcome = entry.error ? ` ✗ ${entry.error.code}` : '';
      const waited = entry.waitedMs !== undefined ? `paced ${(entry.waitedMs / 1000).toFixed(1)} s` : '';
      const detail = [entry.error?.message ?? '', waited].filter((s) => s !== '').join(' · ');
      return { what: `${entry.action ?? 'action'}${target}${outcome}`, detail };
    }
  }
}

export class ActivityView {
  private readonly feed = byId<HTMLOListElement>('feed');
  private readonly empty = byId('feed-empty');
  private readonly allTabs = byId<HTMLInputElement>('all-tabs');
  private entries: (ActivityEntry | { gap: true; seq: number })[] = [];
  private latest = 0;

  constructor(
    private readonly link: PanelLink,
    private readonly currentTab: () => number | null,
  ) {
    link.on((message) => {
      if (message.type === 'activity') this.add(message.entry);
      else if (message.type === 'replay') this.replayed(message.entries, message.gap);
    });
    link.onReconnect(() => this.link.send({ type: 'replay', after: this.latest }));
    this.allTabs.addEventListener('change', () => this.render());
    this.link.send({ type: 'replay', after: 0 });
  }

  /** The tab in front changed: the "this tab" filter follows it. */
  tabChanged(): void {
    this.render();
  }

  private add(entry: ActivityEntry): void {
    if (entry.seq <= this.latest) return;
    if (this.latest > 0 && entry.seq > this.latest + 1 && this.entries.length > 0) {
      // Entries were recorded that this panel never heard: ask for them.
      this.link.send({ type: 'replay', after: this.latest });
    }
    this.entries.push(entry);
    this.latest = entry.seq;
    this.trim();
    this.render();
  }

  private replayed(entries: ActivityEntry[], gap: boolean): void {
    const known = new Set(this.entries.map((e) => e.seq));
    const fresh = entries.filter((e) => !known.has(e.seq));
    if (gap && fresh[0] !== undefined) this.entries.push({ gap: true, seq: fresh[0].seq - 0.5 });
    this.entries.push(...fresh);
    this.entries.sort((a, b) => a.seq - b.seq);
    this.latest = Math.max(this.latest, ...entries.map((e) => e.seq));
    this.trim();
    this.render();
  }

  private trim(): void {
    if (this.entries.length > MAX_SHOWN) this.entries.splice(0, this.entries.length - MAX_SHOWN);
  }

  private render(): void {
    const tab = this.currentTab();
    const shown = this.entries.filter(
      (e) => 'gap' in e || this.allTabs.checked || tab === null || e.tabId === tab,
    );
    this.feed.replaceChildren(...shown.reverse().map((e) => this.item(e)));
    this.empty.hidden = shown.length > 0;
  }

  private item(entry: ActivityEntry | { gap: true; seq: number }): HTMLLIElement {
    if ('gap' in entry) return el('li', { className: 'gap', text: '… older entries were dropped …' });
    const { what, detail } = describe(entry);
    const who = `${entry.label ?? entry.session}${entry.tab !== null ? ` · ${entry.tab}` : ''}`;
    const item = el(
      'li',
      { className: [entry.kind, entry.error ? 'failed' : ''].join(' ').trim() },
      el('span', { className: 'when', text: clock(entry.at) }),
      el('span', { className: 'what', text: what }),
      el('span', { className: 'detail', text: detail }),
      el('span', { className: 'who', text: who }),
    );
    item.dataset.seq = String(entry.seq);
    const tabId = entry.tabId;
    if (tabId !== null) {
      item.title = 'Show this tab';
      item.addEventListener('click', () => this.link.send({ type: 'focus', tabId }));
    }
    return item;
  }
}
