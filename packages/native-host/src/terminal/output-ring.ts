/**
 * The recent output of one terminal, kept so that a view which reattaches sees what it missed: decoded
 * text in arrival order, at most `maxBytes` of UTF-8. Older text goes first; a piece larger than the
 * whole ring keeps its tail. Cutting may split an escape sequence at the very start, which a terminal
 * renders as a few stray characters at worst — never a split character (pieces are whole strings).
 */
export const OUTPUT_RING_BYTES = 1024 * 1024;

export class OutputRing {
  private pieces: { text: string; bytes: number }[] = [];
  private total = 0;

  constructor(private readonly maxBytes = OUTPUT_RING_BYTES) {}

  push(text: string): void {
    if (text === '') return;
    let piece = { text, bytes: Buffer.byteLength(text) };
    if (piece.bytes > this.maxBytes) piece = tailOf(text, this.maxBytes);
    this.pieces.push(piece);
    this.total += piece.bytes;
    while (this.total > this.maxBytes) {
      const oldest = this.pieces.shift();
      if (oldest === undefined) break;
      this.total -= oldest.bytes;
    }
  }

  /** Everything kept, as one string. */
  text(): string {
    return this.pieces.map((piece) => piece.text).join('');
  }

  get bytes(): number {
    return this.total;
  }

  clear(): void {
    this.pieces = [];
    this.total = 0;
  }
}

/** The longest tail of `text` within `maxBytes` of UTF-8, cut between characters. */
function tailOf(text: string, maxBytes: number): { text: string; bytes: number } {
  const chars = Array.from(text);
  let bytes = 0;
  let start = chars.length;
  while (start > 0) {
    const size = Buffer.byteLength(chars[start - 1] ?? '');
    if (bytes + size > maxBytes) break;
    bytes += size;
    start--;
  }
  return { text: chars.slice(start).join(''), bytes };
}
