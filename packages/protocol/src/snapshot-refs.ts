/** Actionable nodes appear in the driver's snapshot text as \uE000<index>\uE001, the index into `refs`; the daemon swaps each for a handle. */
export const SNAPSHOT_REF_OPEN = '\uE000';
export const SNAPSHOT_REF_CLOSE = '\uE001';
