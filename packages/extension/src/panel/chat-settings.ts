/**
 * The agent's settings as the panel shows them: the provider (set with `bproxy agent config`, never
 * here), the fast and strong model names, and a switch per tool. Keys never reach the browser: the
 * host only says whether the agent is configured. When it is not, the chat says what to run.
 */
import type { HostToExtension } from '@bproxy/protocol';
import type { HostCalls } from './chat-host';
import { setupCommand } from '../common/user-commands';
import { byId, el } from './dom';

export class ChatSettings {
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

  /** A turn ran: whatever said the agent had no model is out of date. */
  answered(): void {
    if (this.setup.dataset.cause === 'config') this.setup.hidden = true;
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

  private async save(): Promise<void> {
    const tools: Record<string, boolean> = {};
    for (const box of this.tools.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
      tools[box.name] = box.checked;
    const models: { fast?: string; strong?: string } = {};
    if (this.fast.value.trim() !== '') models.fast = this.fast.value.trim();
    if (this.strong.value.trim() !== '') models.strong = this.strong.value.trim();
    const answer = await this.calls.request({ type: 'settings.set', tools, models });
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
    this.fast.value = answer.models.fast;
    this.strong.value = answer.models.strong;
    this.tools.replaceChildren(
      ...Object.entries(answer.tools)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, on]) => this.toolSwitch(name, on)),
    );
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
