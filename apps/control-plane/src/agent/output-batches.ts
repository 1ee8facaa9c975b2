import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters';

/** Most outputs one command records (the domain's batch limit). */
const MERGED_MAX = 1_000;

interface Waiting {
  frame: AgentOutputFrame;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Records frames in the order they arrive, one conversation at a time, merging the frames
 * that queued up while the previous command ran into one command: at a high rate a
 * conversation costs a commit per batch, not per frame, and at a low rate nothing waits.
 * Frames merge only when they continue each other (same turn, contiguous indexes).
 */
export class OutputBatches {
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly running = new Set<string>();

  constructor(
    private readonly apply: (sessionId: string, frame: AgentOutputFrame) => Promise<void>,
  ) {}

  /** Frames from one box's socket (`sessionId`) merge only with that socket's. */
  add(sessionId: string, frame: AgentOutputFrame): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const key = `${sessionId} ${frame.conversationId}`;
      const list = this.waiting.get(key) ?? [];
      list.push({ frame, resolve, reject });
      this.waiting.set(key, list);
      if (!this.running.has(key)) void this.drain(key, sessionId);
    });
  }

  private async drain(key: string, sessionId: string): Promise<void> {
    this.running.add(key);
    try {
      for (
        let list = this.waiting.get(key);
        list && list.length > 0;
        list = this.waiting.get(key)
      ) {
        const batch = takeContiguous(list);
        try {
          await this.apply(sessionId, merge(batch.map((w) => w.frame)));
          batch.forEach((w) => w.resolve());
        } catch (e) {
          batch.forEach((w) => w.reject(e));
        }
      }
    } finally {
      this.waiting.delete(key);
      this.running.delete(key);
    }
  }
}

function takeContiguous(list: Waiting[]): Waiting[] {
  const batch = [list.shift() as Waiting];
  let outputs = batch[0].frame.outputs.length;
  while (list.length > 0) {
    const last = batch[batch.length - 1].frame;
    const next = list[0].frame;
    const continues =
      next.turn === last.turn && next.fromIndex === last.fromIndex + last.outputs.length;
    if (!continues || outputs + next.outputs.length > MERGED_MAX) break;
    outputs += next.outputs.length;
    batch.push(list.shift() as Waiting);
  }
  return batch;
}

function merge(frames: AgentOutputFrame[]): AgentOutputFrame {
  if (frames.length === 1) return frames[0];
  return { ...frames[0], outputs: frames.flatMap((f) => f.outputs) };
}
