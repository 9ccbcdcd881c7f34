/**
 * Session ids (lowercase base32, never reused while the daemon lives) and tab handles. An agent's
 * session gets 6 characters, a name; a tab the user shared gets 26 (130 random bits), the capability
 * that only the agent it was handed to holds.
 */
import { randomInt } from 'node:crypto';
import { SHARED_SESSION_ID_LENGTH, type SessionId, type TabHandle } from '@bproxy/protocol';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export class SessionIdentifiers {
  private readonly issued = new Set<string>();

  next(kind: 'agent' | 'shared' = 'agent'): SessionId {
    const length = kind === 'shared' ? SHARED_SESSION_ID_LENGTH : 6;
    for (;;) {
      let id = '';
      for (let i = 0; i < length; i++) id += BASE32[randomInt(32)];
      if (!this.issued.has(id)) {
        this.issued.add(id);
        return id as SessionId;
      }
    }
  }
}

export function tabHandle(ordinal: number): TabHandle {
  return `t${ordinal}` as TabHandle;
}
