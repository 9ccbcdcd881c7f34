/**
 * The DOM of one conversation: the user's bubbles (shown the moment they are sent), the agent's
 * answers as safe Markdown growing as they stream (rendered at most once per frame, only the last
 * block parsed again; see MarkdownStream and RenderBatch), each tool call inline with its result
 * folded under it, errors and notices; below them, apart, the messages waiting for the running answer
 * to end (and, marked, those Stop dropped). It renders what it is told, from the live stream or from a
 * stored transcript, and holds no chat state beyond what it shows.
 */
import type { TranscriptEntry } from '@bproxy/protocol';
import { heldWords } from './approval-words';
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
  /**
   * Messages sent while an answer streams, below it and apart from it: each joins the log when its
   * turn starts, or is marked dropped when Stop drops it. Always the log's last child.
   */
  private readonly waitingArea = el('div', {
    className: 'chat-waiting',
    title: 'Sent when the answer above ends',
  });
  /**
   * Waiting messages that will not run (dropped by Stop, refused by a full queue) while the turn ahead
   * had not ended: they join the log under its answer, with what to say under each.
   */
  private later: { bubble: HTMLElement; note: string | null }[] = [];
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
    this.waitingArea.hidden = true;
    this.element.append(this.waitingArea);
  }

  /** A message sent while an answer streams: shown waiting, below that answer, never inside it. */
  queued(text: string): HTMLElement {
    const bubble = el('div', { className: 'bubble user pending queued', text });
    this.waitingArea.append(bubble);
    this.waitingArea.hidden = false;
    return bubble;
  }

  /** A waiting message's turn starts: it joins the log, and the answer after it is a new one. */
  started(bubble: HTMLElement): void {
    this.endAnswer();
    bubble.classList.remove('queued', 'pending');
    this.add(bubble);
    this.waitingArea.hidden = this.waitingArea.childElementCount === 0;
  }

  /**
   * Stop dropped these waiting messages: marked at once, and moved into the log under the stopped
   * answer when its turn ends (`turnDone`), as the stored transcript keeps them.
   */
  dropped(bubbles: readonly HTMLElement[], turnRunning: boolean): void {
    for (const bubble of bubbles) {
      bubble.classList.remove('queued', 'pending');
      bubble.classList.add('dropped');
      bubble.title = 'Not sent: Stop dropped this message';
    }
    for (const bubble of bubbles) this.later.push({ bubble, note: 'Not sent: Stop dropped it.' });
    if (!turnRunning) this.placeLater();
  }

  /** A waiting message the host refused: it joins the log with the others that will not run. */
  refusedWaiting(bubble: HTMLElement): void {
    this.later.push({ bubble, note: null });
  }

  private placeLater(): void {
    for (const { bubble, note } of this.later.splice(0)) {
      this.add(bubble);
      if (note !== null) this.add(el('div', { className: 'dropped-note', text: note }));
    }
    this.waitingArea.hidden = this.waitingArea.childElementCount === 0;
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
    // An action held for the person's decision (approvals): said in plain words under the call.
    if (ok === false && text.startsWith('APPROVAL_REQUIRED'))
      details.after(el('div', { className: 'chat-notice approval-notice', text: heldWords(text) }));
  }

  /** The turn ended: the next text is a new answer; the model that answered is named under it. */
  turnDone(stopped: boolean, model?: string): void {
    this.batch.flush();
    if (stopped) this.notice('Stopped.');
    else if (model !== undefined && this.answer !== null)
      this.answer.node.after(el('div', { className: 'answer-meta', text: model }));
    this.answer = null;
    this.placeLater();
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
    this.element.replaceChildren(this.waitingArea);
    this.waitingArea.replaceChildren();
    this.waitingArea.hidden = true;
    this.later = [];
    this.tools.clear();
    for (const entry of entries) {
      switch (entry.role) {
        case 'user':
          if (entry.dropped === true)
            this.dropped([el('div', { className: 'bubble user', text: entry.text })], false);
          else this.user(entry.text);
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

  /** Appends to the log: before the working dots and the waiting messages, which stay last. */
  private add(node: HTMLElement): void {
    this.element.insertBefore(node, this.waitingArea);
    this.keepTypingLast();
  }

  private keepTypingLast(force = false): void {
    if ((force || this.typing.isConnected) && this.waitingArea.previousSibling !== this.typing)
      this.element.insertBefore(this.typing, this.waitingArea);
  }
}
