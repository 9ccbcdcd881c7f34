/**
 * The agent's settings as the panel shows them: the provider (set with `bproxy agent config`, never
 * here), the fast and strong model names, and a switch per tool. Keys never reach the browser: the
 * host only says whether the agent is configured. When it is not, the chat says what to run.
 *
 * They are kept current, since `bproxy agent config` may change them any time: read again when the
 * panel comes into view, when the settings are opened, after each answer, and every few seconds while
 * the chat shows — a field the person is editing is left as they typed it. Save sends only the fields
 * the person changed, with what was shown for them: the host refuses the save when one changed
 * elsewhere meanwhile, so shown-but-stale values never overwrite newer settings.
 */
import type { HostToExtension } from '@bproxy/protocol';
import type { HostCalls } from './chat-host';
import { setupCommand } from '../common/user-commands';
import { byId, el } from './dom';

/** How often the settings are read again while the chat shows. */
const REFRESH_MS = 3_000;
/** The host's refusal of a save from stale fields starts with this (the agent's SETTINGS_CHANGED). */
const CHANGED_ELSEWHERE = 'the settings changed since the panel showed them';

interface Shown {
  models: { fast: string; strong: string };
  tools: Record<string, boolean>;
}

export class ChatSettings {
  /** What the host last said, as shown: a field that differs from it is the person's edit. */
  private shown: Shown | null = null;
  private readonly details = byId<HTMLDetailsElement>('chat-settings');
  private readonly chatView = byId('view-chat');

  private readonly provider = byId('chat-provider');
  private readonly form = byId<HTMLFormElement>('chat-settings-form');
  private readonly fast = byId<HTMLInputElement>('chat-fast');
  private readonly strong = byId<HTMLInputElement>('chat-strong');
  private readonly tools = byId('chat-tools');
  private readonly message = byId('chat-settings-message');
  private readonly setup = byId('chat-setup');

  constructor(private readonly calls: HostCalls) {
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.save();
    });
    this.details.addEventListener('toggle', () => {
      if (this.details.open) void this.load();
    });
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden) void this.load();
    });
    setInterval(() => {
      if (!document.hidden && !this.chatView.hidden) void this.load();
    }, REFRESH_MS);
  }

  async load(): Promise<void> {
    this.show(await this.calls.request({ type: 'settings.get' }));
  }

  /** The agent said it has no provider: say what to run. */
  notConfigured(): void {
    this.setup.dataset.cause = 'config';
    this.setup.hidden = false;
    this.setup.replaceChildren(
      el('strong', { text: 'The agent has no model yet. ' }),
      'In a terminal, run ',
      el('code', { text: 'bproxy agent config --provider anthropic --key-stdin' }),
      ' (or openai, copilot, claude-code; see the README), then send again.',
    );
  }

  /** A turn ran: whatever said the agent had no model is out of date, and so may be the provider shown. */
  answered(): void {
    if (this.setup.dataset.cause === 'config') this.setup.hidden = true;
    void this.load();
  }

  /** The native host is not there at all. */
  hostMissing(missing: boolean): void {
    if (!missing) {
      if (this.setup.dataset.cause === 'host') this.setup.hidden = true;
      return;
    }
    this.setup.dataset.cause = 'host';
    this.setup.hidden = false;
    this.setup.replaceChildren(
      el('strong', { text: 'The bproxy native host is not installed. ' }),
      'Run ',
      el('code', { text: setupCommand() }),
      ' once, then reload the extension.',
    );
  }

  /** Only what the person changed, each with what was shown for it. */
  private async save(): Promise<void> {
    const shown = this.shown;
    if (shown === null) return;
    const tools: Record<string, boolean> = {};
    const toolsBase: Record<string, boolean> = {};
    for (const box of this.tools.querySelectorAll<HTMLInputElement>('input[type=checkbox]')) {
      const before = shown.tools[box.name];
      if (before === undefined || box.checked === before) continue;
      tools[box.name] = box.checked;
      toolsBase[box.name] = before;
    }
    const models: { fast?: string; strong?: string } = {};
    const modelsBase: { fast?: string; strong?: string } = {};
    for (const [tier, input] of [
      ['fast', this.fast],
      ['strong', this.strong],
    ] as const) {
      const value = input.value.trim();
      if (value === '' || value === shown.models[tier]) continue;
      models[tier] = value;
      modelsBase[tier] = shown.models[tier];
    }
    if (Object.keys(tools).length === 0 && Object.keys(models).length === 0) {
      this.say('Nothing changed.', 'ok');
      return;
    }
    const answer = await this.calls.request({
      type: 'settings.set',
      tools,
      models,
      base: { tools: toolsBase, models: modelsBase },
    });
    if (answer.type === 'error' && answer.message.startsWith(CHANGED_ELSEWHERE)) {
      this.shown = null; // the person's edits were made on stale values: show the current ones whole
      await this.load();
      this.say(
        'Not saved: these settings were changed elsewhere meanwhile. Here are the current ones.',
        'bad',
      );
      return;
    }
    this.shown = null;
    this.show(answer);
    if (answer.type === 'settings') this.say('Saved.', 'ok');
  }

  private show(answer: HostToExtension): void {
    if (answer.type !== 'settings') {
      const why = answer.type === 'error' ? answer.message : 'unexpected answer';
      this.provider.textContent = 'unavailable';
      this.say(`Settings unavailable: ${why}`, 'bad');
      return;
    }
    this.provider.textContent = answer.provider ?? 'not configured';
    // A field the person edited keeps their value, and what was shown when they edited it: the save
    // sends that as its base, so a change made elsewhere meanwhile refuses the save.
    const before = this.shown;
    const shown: Shown = { models: { ...answer.models }, tools: { ...answer.tools } };
    for (const [tier, input] of [
      ['fast', this.fast],
      ['strong', this.strong],
    ] as const) {
      const was = before?.models[tier];
      if (was !== undefined && input.value.trim() !== was) shown.models[tier] = was;
      else input.value = answer.models[tier];
    }
    const boxes = new Map(
      [...this.tools.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].map((b) => [b.name, b]),
    );
    const names = Object.keys(answer.tools).sort((a, b) => a.localeCompare(b));
    for (const name of names) {
      const box = boxes.get(name);
      const was = before?.tools[name];
      if (box !== undefined && was !== undefined && box.checked !== was) shown.tools[name] = was;
      else if (box !== undefined) box.checked = answer.tools[name] === true;
    }
    // Rebuilt only when the tools themselves changed: a box keeps its focus across refreshes.
    if (names.join('\n') !== [...boxes.keys()].join('\n'))
      this.tools.replaceChildren(
        ...names.map((name) =>
          this.toolSwitch(name, boxes.get(name)?.checked ?? answer.tools[name] === true),
        ),
      );
    this.shown = shown;
    if (!answer.configured) this.notConfigured();
    else if (this.setup.dataset.cause !== 'host') this.setup.hidden = true;
  }

  private toolSwitch(name: string, on: boolean): HTMLLabelElement {
    const box = el('input');
    box.type = 'checkbox';
    box.name = name;
    box.checked = on;
    return el('label', {}, box, el('span', { text: name }));
  }

  private say(text: string, tone: 'ok' | 'bad'): void {
    this.message.textContent = text;
    this.message.className = `message ${tone}`;
  }
}
