/** A zip archive (deflate) of the entries, in order, with a fixed timestamp. */
export function zip(entries: { name: string; data: Buffer }[]): Buffer;
