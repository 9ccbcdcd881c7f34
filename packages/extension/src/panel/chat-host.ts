/**
 * The chat's requests to the native host through the panel's port: each gets an id of its own, and
 * resolves with the host message carrying that id (its answer, or an `error`), or with a local error
 * when none came in time or the worker went away. Streams (deltas, tool calls) are not answers and
 * go to the view's own listener.
 */
import type { ExtensionToHost, HostToExtension } from '@bproxy/protocol';
import type { PanelLink } from './link';

type HostRequest = Extract<ExtensionToHost, { id: string }>;
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

const ANSWER_WITHIN_MS = 20_000;

export class HostCalls {
  private readonly waiting = new Map<string, (answer: HostToExtension) => void>();
  private counter = 0;

  constructor(private readonly link: PanelLink) {
    link.on((message) => {
      if (message.type !== 'host' || !('id' in message.message) || message.message.id === undefined) return;
      this.waiting.get(message.message.id)?.(message.message);
    });
    link.onReconnect(() => {
      for (const answer of [...this.waiting.values()])
        answer({ type: 'error', code: 'NO_DAEMON', message: 'the extension restarted; try again' });
    });
  }

  request(message: WithoutId<HostRequest>): Promise<HostToExtension> {
    const id = `chat-${++this.counter}`;
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => done({ type: 'error', id, code: 'TIMEOUT', message: 'the native host did not answer in time' }),
        ANSWER_WITHIN_MS,
      );
      const done = (answer: HostToExtension) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(answer);
      };
      this.waiting.set(id, done);
      this.link.send({ type: 'host', message: { ...message, id } as HostRequest });
    });
  }
}
