/** A page of output: `data` is text; the offsets are bytes of the terminal's raw output. */
export interface OutputPage {
  data: string;
  startOffset: number;
  endOffset: number;
  truncated: boolean;
}

export const READ_LIMIT_DEFAULT = 64 * 1024;
export const READ_LIMIT_MAX = 1024 * 1024;

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/** How many bytes a UTF-8 sequence starting with this byte has (1 for a stray byte). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc2) return 2;
  return 1;
}

/**
 * A terminal's output: append-only, addressed by byte offset from 0. Chunks are kept as they
 * came (no copying on append) and joined only for the range a read asks for.
 *
 * Offsets are bytes, data is text: a page never starts or ends inside a UTF-8 sequence. A
 * start that falls inside one moves forward to the next character, an end moves back before
 * the character it would cut (that character is the next page's first), and `startOffset` /
 * `endOffset` say where the page really lies, so reading on from `endOffset` loses nothing and
 * decodes nothing twice. Bytes that are not UTF-8 decode as U+FFFD, their offsets unchanged.
 */
export class OutputBuffer {
  private readonly chunks: Buffer[] = [];
  /** Offset of each chunk's first byte, for a binary search. */
  private readonly starts: number[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  append(bytes: Buffer): number {
    if (bytes.length === 0) return this.size;
    this.starts.push(this.size);
    this.chunks.push(bytes);
    this.size += bytes.length;
    return this.size;
  }

  /** Bytes [from, to) as one Buffer. */
  bytes(from: number, to: number): Buffer {
    const end = Math.min(to, this.size);
    if (from >= end) return Buffer.alloc(0);
    let i = this.chunkAt(from);
    const parts: Buffer[] = [];
    let at = from;
    while (at < end) {
      const chunk = this.chunks[i];
      const start = this.starts[i];
      parts.push(chunk.subarray(at - start, Math.min(chunk.length, end - start)));
      at = start + chunk.length;
      i += 1;
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  read(afterOffset = 0, limit = READ_LIMIT_DEFAULT): OutputPage {
    let start = Math.min(Math.max(0, afterOffset), this.size);
    // Skip the tail of a sequence the start fell into (at most 3 bytes).
    const head = this.bytes(start, start + 3);
    let skip = 0;
    while (skip < head.length && isContinuation(head[skip])) skip += 1;
    start += skip;
    let end = Math.min(this.size, start + limit);
    const window = this.bytes(start, Math.min(this.size, end + 3));
    end = start + this.boundary(window, end - start);
    const data = this.bytes(start, end).toString('utf8');
    return { data, startOffset: start, endOffset: end, truncated: end < this.size };
  }

  /**
   * The largest cut ≤ `want` in `window` that splits no sequence. At the end of what has
   * arrived, a last sequence still incomplete (its other bytes are on their way) is left for
   * the next read. A limit smaller than the first character gives that character whole.
   */
  private boundary(window: Buffer, want: number): number {
    let cut = Math.min(want, window.length);
    if (cut < window.length) {
      while (cut > 0 && isContinuation(window[cut])) cut -= 1;
    } else {
      let lead = cut - 1;
      while (lead > 0 && cut - lead < 4 && isContinuation(window[lead])) lead -= 1;
      if (lead >= 0 && !isContinuation(window[lead]) && lead + sequenceLength(window[lead]) > cut) {
        cut = lead;
      }
    }
    if (cut > 0 || window.length === 0) return cut;
    const first = sequenceLength(window[0]);
    return first <= window.length ? first : 0;
  }

  private chunkAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
