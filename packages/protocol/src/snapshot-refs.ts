/** Actionable nodes appear in the driver's snapshot text as \uE000<index>\uE001, the index into `refs`; the daemon swaps each for a handle. */
export const SNAPSHOT_REF_OPEN = '\uE000';
export const SNAPSHOT_REF_CLOSE = '\uE001';

/**
 * A frame the page script could not enter (cross-origin) appears in its snapshot as \uE002<slot>\uE003
 * at the end of the frame's line; the driver reads that frame and puts its outline there (or says why
 * it could not). The marker never reaches the daemon.
 */
export const SNAPSHOT_FRAME_OPEN = '\uE002';
export const SNAPSHOT_FRAME_CLOSE = '\uE003';

/**
 * The daemon mints at most this many handles of one kind (el, ln) per read; a read that found more
 * (links, elements) says it was truncated, and a snapshot part ends before its refs of a kind would
 * exceed it, so that every element a part shows gets a handle.
 */
export const HANDLES_PER_READ = 200;

/**
 * With `diff`, the page also sends the long text runs a whole snapshot leaves out (`longText`), so that
 * a diff can show text that appeared since the last read whatever its length: at most this many runs,
 * each cut at LONG_TEXT_MAX characters.
 */
export const LONG_TEXT_RUNS = 200;
export const LONG_TEXT_MAX = 2000;
