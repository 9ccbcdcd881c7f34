/**
 * The actions held for a person's decision. Refuse-and-retry semantics (APPROVAL_REQUIRED): a gated
 * action is never run while it waits; it is recorded here under a key (session, tab, action, the
 * target as the agent named it). After "Allow once" the agent's retry of the same action on the same
 * element consumes the allowance — exactly once: the next retry asks again. A denial answers the next
 * retry and is then forgotten (a later retry asks again). What nobody decided, or an allowance the agent
 * did not use, expires after EXPIRE_MS: it leaves the side panel, and a retry asks again.
 */
import type { ActionClass, ApprovalField, PendingApproval } from '@bproxy/protocol';

const KEPT = 100;
/** How long an approval waits for a person, and an allowance for the agent's retry. */
export const EXPIRE_MS = 10 * 60_000;

export interface BookOptions {
  /** Epoch milliseconds (the daemon's clock). */
  now?: () => number;
  expireMs?: number;
}

export interface AskFacts {
  key: string;
  session: string;
  tab: string;
  action: string;
  class: ActionClass;
  origin: string;
  name: string;
  why?: string;
  fields: ApprovalField[];
  at: number;
}

interface Entry {
  key: string;
  approval: PendingApproval;
  denied: boolean;
  expiresAt: number;
}

export class ApprovalBook {
  private readonly byId = new Map<string, Entry>();
  private readonly byKey = new Map<string, Entry>();
  private minted = 0;
  private readonly listeners = new Set<() => void>();
  private readonly now: () => number;
  private readonly expireMs: number;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly random: () => number,
    options: BookOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.expireMs = options.expireMs ?? EXPIRE_MS;
  }

  /** Called when what waits changes (the toolbar badge). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.schedule();
    for (const listener of this.listeners) listener();
  }

  /** Forgets what expired; returns whether anything did. */
  expire(): boolean {
    const now = this.now();
    const gone = [...this.byId.values()].filter((e) => e.expiresAt <= now);
    for (const entry of gone) this.forget(entry);
    return gone.length > 0;
  }

  /** One timer, for the next expiry (it does not keep the process alive). */
  private schedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    let next = Infinity;
    for (const entry of this.byId.values()) next = Math.min(next, entry.expiresAt);
    if (next === Infinity) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (!this.expire()) this.schedule();
      },
      Math.max(0, next - this.now()),
    );
    this.timer.unref?.();
  }

  /**
   * The agent's attempt: `allowed` when a person allowed this very action once (consumed now),
   * `denied` when they denied it (forgotten now), else the pending approval (new or the same one).
   */
  attempt(
    facts: AskFacts,
  ):
    | { state: 'allowed' }
    | { state: 'denied'; approval: PendingApproval }
    | { state: 'pending'; approval: PendingApproval } {
    this.expire();
    const known = this.byKey.get(facts.key);
    if (known) {
      if (known.approval.state === 'allowed') {
        this.forget(known);
        return { state: 'allowed' };
      }
      if (known.denied) {
        this.forget(known);
        return { state: 'denied', approval: known.approval };
      }
      return { state: 'pending', approval: known.approval };
    }
    const id = `ap-${(++this.minted).toString(36)}${Math.floor(this.random() * 2 ** 32).toString(36)}`.slice(
      0,
      27,
    );
    const approval: PendingApproval = {
      id,
      session: facts.session,
      tab: facts.tab,
      action: facts.action,
      class: facts.class,
      origin: facts.origin,
      name: facts.name,
      ...(facts.why === undefined ? {} : { why: facts.why }),
      fields: facts.fields,
      at: facts.at,
      state: 'pending',
    };
    const entry: Entry = { key: facts.key, approval, denied: false, expiresAt: this.now() + this.expireMs };
    this.byId.set(id, entry);
    this.byKey.set(facts.key, entry);
    while (this.byId.size > KEPT) {
      const oldest = this.byId.values().next().value;
      if (oldest === undefined) break;
      this.forget(oldest);
    }
    this.changed();
    return { state: 'pending', approval };
  }

  private forget(entry: Entry): void {
    this.byId.delete(entry.approval.id);
    if (this.byKey.get(entry.key) === entry) this.byKey.delete(entry.key);
    this.changed();
  }

  get(id: string): PendingApproval | null {
    this.expire();
    return this.byId.get(id)?.approval ?? null;
  }

  /** A person's decision: allow (once) or deny; null when no such approval waits. */
  decide(id: string, allow: boolean): PendingApproval | null {
    const entry = this.byId.get(id);
    if (!entry || entry.approval.state !== 'pending' || entry.denied) return null;
    if (allow) entry.approval = { ...entry.approval, state: 'allowed' };
    else entry.denied = true;
    // The agent's retry has as long again to use the allowance (or hear the denial).
    entry.expiresAt = this.now() + this.expireMs;
    this.changed();
    return entry.approval;
  }

  /** What a person still has to decide, oldest first (allowed ones wait for the agent's retry). */
  pending(): PendingApproval[] {
    this.expire();
    return [...this.byId.values()].filter((e) => !e.denied).map((e) => e.approval);
  }

  /** A session closed: its approvals go. */
  dropSession(session: string): void {
    for (const entry of [...this.byId.values()]) if (entry.approval.session === session) this.forget(entry);
  }
}
