import type { SshTerminalViewStatus } from '@sessionboxer/contracts';
import { OutputBuffer, type OutputPage } from './output-buffer';
import type { OpenShell } from './ssh-connection';

/** What the owning MCP connection hears: hints, since reads by offset are the truth. */
export interface TerminalListener {
  outputAvailable(sessionId: string, offset: number): void;
  sessionStatus(sessionId: string, status: SshTerminalViewStatus, endpointId: string): void;
}

/** Where output batches go (the event log), one at a time, in order. */
export type OutputSink = (offset: number, bytes: Buffer) => Promise<void>;

const BATCH_BYTES = 256 * 1024;
const BATCH_MS = 50;

/**
 * One terminal in this process: its output buffer, its shell once open, the debounced
 * `output_available` (the first output after a quiet spell goes at once, then at most one per
 * `debounceMs`, so an echo is heard without delay and a flood costs a few notifications) and
 * the batches of bytes written to the log behind the buffer.
 */
export class TerminalRuntime {
  readonly buffer = new OutputBuffer();
  status: SshTerminalViewStatus = 'pending';
  shell: OpenShell | null = null;
  /** Set once something began to end it, so two ends (close tool, remote exit) run once. */
  ending = false;
  /** Told after each chunk of output (the browsers' feed). */
  onOutput: () => void = () => undefined;
  readonly createdAt: string;
  private notified = 0;
  /** How far the owner has read: a notification it has not acted on yet needs no company. */
  private readUpTo = 0;
  private debounce: NodeJS.Timeout | null = null;
  private recorded = 0;
  private batchTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    readonly sessionId: string,
    readonly owner: string,
    readonly endpointId: string,
    createdAt: Date,
    private readonly listener: TerminalListener | null,
    private readonly debounceMs: number,
    private readonly sink: OutputSink,
  ) {
    this.createdAt = createdAt.toISOString();
  }

  output(bytes: Buffer): void {
    this.buffer.append(bytes);
    this.onOutput();
    // At once after a quiet spell, or when the owner has read all it was told of (it waits
    // for this very output: an echo); otherwise at the end of the debounce window.
    if (this.debounce === null || this.readUpTo >= this.notified) this.notify();
    if (this.buffer.length - this.recorded >= BATCH_BYTES) void this.flush();
    else this.batchTimer ??= setTimeout(() => void this.flush(), BATCH_MS);
  }

  setStatus(status: SshTerminalViewStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.listener?.sessionStatus(this.sessionId, status, this.endpointId);
  }

  /** The owner's read (the Terminals view reads through `buffer`, which moves nothing). */
  read(afterOffset?: number, limit?: number): OutputPage {
    const page = this.buffer.read(afterOffset, limit);
    this.readUpTo = Math.max(this.readUpTo, page.endOffset);
    return page;
  }

  /** Writes what is not yet in the log; resolves when all of it is. */
  flush(): Promise<void> {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    const from = this.recorded;
    const to = this.buffer.length;
    if (to > from) {
      this.recorded = to;
      const bytes = this.buffer.bytes(from, to);
      // A batch the log did not take is sent again with the next one (the decider skips
      // what it has), so the log never has a gap.
      this.flushing = this.flushing
        .then(() => this.sink(from, bytes))
        .catch(() => {
          this.recorded = Math.min(this.recorded, from);
        });
    }
    return this.flushing;
  }

  dispose(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = null;
    this.shell?.end();
    this.shell = null;
  }

  private notify(): void {
    if (this.debounce) clearTimeout(this.debounce);
    const from = this.notified;
    this.notified = this.buffer.length;
    this.listener?.outputAvailable(this.sessionId, from);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      if (this.buffer.length > this.notified) this.notify();
    }, this.debounceMs);
  }
}
