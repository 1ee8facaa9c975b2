import type { HarnessOutput } from '@sessionboxer/domain';
import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';

/** An error the turn cannot recover from, and the failed end that goes with it. */
export function failedTurn(code: string, message: string): HarnessOutput[] {
  return [
    { type: 'error', code, message },
    {
      type: 'turn_finished',
      status: 'failed',
      input_tokens: 0,
      output_tokens: 0,
      usage: null,
      context: null,
    },
  ];
}

/** Most outputs in one frame (the control plane records one frame as one command). */
const BATCH_MAX = 200;

/**
 * Numbers a turn's outputs and sends them in frames: whatever arrives within one tick goes
 * in one frame, so a fast stream costs fewer commands while a slow one is sent at once.
 */
export class OutputStream {
  private next = 0;
  private pending: HarnessOutput[] = [];
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly key: { conversationId: string; turn: number },
    private readonly send: (frame: AgentOutputFrame) => void,
  ) {}

  emit(outputs: readonly HarnessOutput[]): void {
    if (this.closed || outputs.length === 0) return;
    this.pending.push(...outputs);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Drops whatever comes later (the turn was interrupted: the control plane ended it). */
  close(): void {
    this.flush();
    this.closed = true;
  }

  flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const outputs = this.pending.splice(0, BATCH_MAX);
      const frame = { ...this.key, fromIndex: this.next, outputs };
      this.next += outputs.length;
      this.send(frame);
    }
  }
}
