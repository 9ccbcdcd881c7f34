/** Session ids (6 chars of lowercase base32, never reused while the daemon lives) and tab handles. */
import { randomInt } from 'node:crypto';
import type { SessionId, TabHandle } from '@bproxy/protocol';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export class SessionIdentifiers {
  private readonly issued = new Set<string>();

  next(): SessionId {
    for (;;) {
      let id = '';
      for (let i = 0; i < 6; i++) id += BASE32[randomInt(32)];
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
