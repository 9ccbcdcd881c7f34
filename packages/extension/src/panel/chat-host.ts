/**
 * The chat's requests to the native host through the panel's port: each gets an id of its own, which
 * the worker passes on to the host unchanged, and resolves with the host message carrying that id (its
 * answer, or an `error`), or with a local error when none came in time or the worker went away. The id
 * starts with a random part of this panel's, so that two panels' requests never share one on the
 * worker's port to the host. Streams (deltas, tool calls) are not answers and go to the view's own
 * listener.
 */
import type { ExtensionToHost, HostToExtension } from '@bproxy/protocol';
import { PendingAnswers } from '../common/pending-answers';
import type { PanelLink } from './link';

type HostRequest = Extract<ExtensionToHost, { id: string }>;
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

const ANSWER_WITHIN_MS = 20_000;

/** `chat-` and eight random letters or digits: this panel's share of the ids on the host's port. */
function panelPrefix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `chat-${[...bytes].map((b) => (b % 36).toString(36)).join('')}-`;
}

export class HostCalls {
  private readonly pending = new PendingAnswers<HostToExtension>({
    prefix: panelPrefix(),
    deadlineMs: ANSWER_WITHIN_MS,
    unanswered: (id, why) =>
      why.kind === 'deadline'
        ? { type: 'error', id, code: 'TIMEOUT', message: 'the native host did not answer in time' }
        : { type: 'error', code: 'NO_DAEMON', message: 'the extension restarted; try again' },
  });

  constructor(private readonly link: PanelLink) {
    link.on((message) => {
      if (message.type !== 'host' || !('id' in message.message) || message.message.id === undefined) return;
      this.pending.answer(message.message.id, message.message);
    });
    link.onReconnect(() => this.pending.settleAll('the extension restarted'));
  }

  request(message: WithoutId<HostRequest>): Promise<HostToExtension> {
    return this.pending.request((id) =>
      this.link.send({ type: 'host', message: { ...message, id } as HostRequest }),
    );
  }
}
