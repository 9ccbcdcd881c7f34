/**
 * What the drivers stopped in the browser (`navigation_blocked`): a session tab's top-level navigation,
 * or a popup its page opened, to an origin the policy refuses — nothing was sent there. The session
 * pauses with the reason, like a login wall; the action that was running when it happened answers
 * POLICY_DENIED (checkLanding, by the mark taken before it was forwarded). Also what the daemon tells
 * the drivers so that they can: the policy in force (`nav_guard`), sent on every change.
 */
import type { SitePolicy } from '@bproxy/protocol';
import type { ClientRegistry } from '../browsers/clients';
import type { DriverLink } from '../server-options';
import type { LiveVerdict } from './site-policy';

/** One stopped navigation, by the browser tab it happened in (a popup's: its opener's). */
export interface Block {
  readonly seq: number;
  readonly url: string;
  readonly popup: boolean;
  readonly verdict: LiveVerdict;
}

const KEPT = 50;

/** The latest stops, newest last; `seq` orders them against an action's mark. */
export class Blocks {
  private seq = 0;
  private readonly kept: (Block & { key: string })[] = [];

  mark(): number {
    return this.seq;
  }

  note(key: string, url: string, popup: boolean, verdict: LiveVerdict): Block {
    const block = { key, seq: ++this.seq, url, popup, verdict };
    this.kept.push(block);
    if (this.kept.length > KEPT) this.kept.shift();
    return block;
  }

  /** The first stop in one of `keys` since `mark`. */
  since(mark: number, keys: ReadonlySet<string>): Block | undefined {
    return this.kept.find((b) => b.seq > mark && keys.has(b.key));
  }
}

export const blockKey = (clientKey: string, rawTabId: number): string => `${clientKey}#${rawTabId}`;

/** Sends each connected driver the policy in force when it changed since it was last told. */
export class NavGuardPush {
  private readonly told = new WeakMap<DriverLink, string>();

  constructor(
    private readonly clients: ClientRegistry,
    private readonly policy: () => SitePolicy | null,
  ) {}

  sync(): void {
    const policy = this.policy();
    const json = JSON.stringify(policy);
    for (const client of this.clients.all()) {
      const link = client.transport;
      if (link === null || this.told.get(link) === json) continue;
      this.told.set(link, json);
      link.send({ type: 'nav_guard', policy });
    }
  }
}
