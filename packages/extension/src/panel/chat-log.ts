/**
 * The DOM of one conversation: the user's bubbles (shown the moment they are sent), the agent's
 * answers as safe Markdown growing as they stream (rendered at most once per frame, only the last
 * block parsed again; see MarkdownStream and RenderBatch), each tool call inline with its result
 * folded under it, errors and notices. It renders what it is told, from the live stream or from a
 * stored transcript, and holds no chat state beyond what it shows.
 */
import type { TranscriptEntry } from '@bproxy/protocol';
import { el } from './dom';
import { domFactory, MarkdownStream } from './markdown';
import { RenderBatch } from './render-batch';

/** How much of a tool's input its one-line summary shows. */
const SUMMARY_CHARS = 90;

/** A target as the model wrote it: a handle as is, a selector by itself. */
function shown(key: string, value: unknown): string {
  if (key === 'target' && typeof value === 'object' && value !== null && 'selector' in value)
    return String((value as { selector: unknown }).selector);
  if (key === 'target' && typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
}

/** One line for a tool call's input: its values, the target first (the full input is folded below). */
function inputSummary(input: Record<string, unknown>): string {
  const line = Object.entries(input)
    .map(([key, value]) => shown(key, value))
    .join(' · ');
  return line.length > SUMMARY_CHARS ? `${line.slice(0, SUMMARY_CHARS - 1)}…` : line;
}

export class ChatLog {
  readonly element = el('div', { className: 'chat-log' });
  private answer: { node: HTMLElement; stream: MarkdownStream<ChildNode> } | null = null;
  private readonly tools = new Map<string, HTMLDetailsElement>();
  private readonly typing = el('div', { className: 'typing', title: 'The agent is working' });
  private readonly batch = new RenderBatch(() => {
    this.answer?.stream.render();
    this.keepTypingLast();
    this.rendered();
  });

  /** `rendered`: called after a streamed answer was rendered (the view scrolls). */
  constructor(private readonly rendered: () => void = () => undefined) {
    this.typing.append(el('span'), el('span'), el('span'));
  }

  /** The user's message, at once; `pending` until the host took it (or refused it). */
  user(text: string, pending = false): HTMLElement {
    this.endAnswer();
    const bubble = el('div', { className: `bubble user${pending ? ' pending' : ''}`, text });
    this.add(bubble);
    return bubble;
  }

  /** A piece of the streamed answer: kept at once, rendered at the next frame. */
  delta(text: string): void {
    if (this.answer === null) {
      const node = el('div', { className: 'bubble agent' });
      const stream = new MarkdownStream<ChildNode>(node, domFactory(document));
      this.answer = { node, stream };
      this.add(node);
    }
    this.answer.stream.append(text);
    this.batch.request();
  }

  toolCall(callId: string, name: string, input: Record<string, unknown>): void {
    this.endAnswer();
    const summary = el(
      'summary',
      {},
      el('span', { className: 'tool-state', text: '…' }),
      el('span', { className: 'tool-name', text: name }),
      el('span', { className: 'tool-args', text: inputSummary(input) }),
    );
    const details = el(
      'details',
      { className: 'tool running' },
      summary,
      el('pre', { className: 'tool-input', text: JSON.stringify(input, null, 2) }),
    );
    details.dataset.callId = callId;
    this.tools.set(callId, details);
    this.add(details);
  }

  toolResult(callId: string, ok: boolean | null, text: string): void {
    const details = this.tools.get(callId);
    if (details === undefined) return;
    details.className = `tool ${ok === null ? 'unfinished' : ok ? 'ok' : 'failed'}`;
    const state = details.querySelector('.tool-state');
    if (state) state.textContent = ok === null ? '–' : ok ? '✓' : '✗';
    details.append(el('pre', { className: 'tool-result', text }));
  }

  /** The turn ended: the next text is a new answer; the model that answered is named under it. */
  turnDone(stopped: boolean, model?: string): void {
    this.batch.flush();
    if (stopped) this.notice('Stopped.');
    else if (model !== undefined && this.answer !== null)
      this.answer.node.after(el('div', { className: 'answer-meta', text: model }));
    this.answer = null;
  }

  error(text: string): void {
    this.endAnswer();
    this.add(el('div', { className: 'chat-error', text }));
  }

  notice(text: string): void {
    this.add(el('div', { className: 'chat-notice', text }));
  }

  /** Shows the "working" dots at the end while a turn runs. */
  working(on: boolean): void {
    if (on) this.keepTypingLast(true);
    else this.typing.remove();
  }

  /** A stored transcript replaces what is shown. */
  load(entries: readonly TranscriptEntry[]): void {
    this.endAnswer();
    this.element.replaceChildren();
    this.tools.clear();
    for (const entry of entries) {
      switch (entry.role) {
        case 'user':
          this.user(entry.text);
          break;
        case 'assistant':
          this.delta(entry.text);
          this.turnDone(false, entry.model);
          break;
        case 'tool':
          this.toolCall(entry.callId, entry.name, entry.input);
          if (entry.text !== '' || entry.ok !== null) this.toolResult(entry.callId, entry.ok, entry.text);
          break;
        case 'error':
          this.error(entry.text);
          break;
      }
    }
  }

  /** The answer is complete: rendered now, and the next text starts a new one. */
  private endAnswer(): void {
    this.batch.flush();
    this.answer = null;
  }

  private add(node: HTMLElement): void {
    this.element.append(node);
    this.keepTypingLast();
  }

  private keepTypingLast(force = false): void {
    if ((force || this.typing.isConnected) && this.element.lastChild !== this.typing)
      this.element.append(this.typing);
  }
}
