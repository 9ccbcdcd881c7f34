/**
 * Activity: a live feed of what agents do in this browser, newest first, in words (activity-words.ts):
 * what was done to which element, by which kind of agent, refusals while paused, pauses and resumes —
 * pushed by the daemon through the worker. On open it replays what the daemon kept and marks where entries were dropped. Filter: this
 * tab or all tabs; a click on an entry brings its tab to the front.
 */
import type { ActivityEntry } from '@bproxy/protocol';
import { agentWords, entryWords, type Words } from './activity-words';
import { byId, el } from './dom';
import type { PanelLink } from './link';

const MAX_SHOWN = 500;

function clock(at: number): string {
  return new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

function sentence(words: Words): Node[] {
  return words.map((part) =>
    typeof part === 'string' ? document.createTextNode(part) : el('strong', { text: part.name }),
  );
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
    const { what, detail } = entryWords(entry);
    // Who acted; the session's own words only when it is not the user's shared tab (no ids, no t1).
    const label = entry.label !== undefined && entry.label !== 'shared by the user' ? entry.label : '';
    const who = entry.kind === 'action' ? agentWords(entry.agent) : label;
    const item = el(
      'li',
      { className: [entry.kind, entry.error ? 'failed' : ''].join(' ').trim() },
      el('span', { className: 'when', text: clock(entry.at) }),
      el('span', { className: 'what' }, ...sentence(what)),
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
