/** The in-text marker for an actionable node: \uE000<index into refs>\uE001, swapped for a handle by the daemon. */
import { SNAPSHOT_REF_CLOSE, SNAPSHOT_REF_OPEN } from '@bproxy/protocol/plain';

export function placeholder(index: number): string {
  return `${SNAPSHOT_REF_OPEN}${index}${SNAPSHOT_REF_CLOSE}`;
}
