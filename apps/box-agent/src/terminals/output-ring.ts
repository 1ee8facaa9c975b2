export const TERMINAL_RETAINED_BYTES = 256 * 1024;

/** Past this many chunks they are joined, so that a chatty terminal's 1-byte reads stay cheap. */
const COMPACT_AT = 512;

/** The last `capacity` bytes of a terminal's output (UTF-8), oldest dropped first. */
export class OutputRing {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(readonly capacity = TERMINAL_RETAINED_BYTES) {}

  get bytes(): number {
    return this.size;
  }

  push(text: string): void {
    const chunk = Buffer.from(text, 'utf8');
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.trim();
    if (this.chunks.length > COMPACT_AT) this.chunks = [Buffer.concat(this.chunks)];
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    // Trimming may have cut a character in two: skip its orphaned continuation bytes.
    let start = 0;
    while (start < all.length && start < 3 && (all[start] & 0xc0) === 0x80) start++;
    return all.subarray(start).toString('utf8');
  }

  private trim(): void {
    while (this.size > this.capacity) {
      const first = this.chunks[0];
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }
}
