import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import type { Log } from '../log';

/** Outputs kept while unacknowledged; past this the oldest frames are dropped, and logged. */
const MAX_OUTPUTS = 50_000;

const keyOf = (f: { conversationId: string; turn: number; fromIndex: number }) =>
  `${f.conversationId}/${f.turn}/${f.fromIndex}`;

/**
 * Agent output must not be lost with a connection: every frame is kept until the control
 * plane acknowledges it (`agent.ack`, after recording it) and sent again, in order, on every
 * new connection. The control plane records a frame once whatever the resends.
 */
export class AckedOutbox {
  private readonly frames = new Map<string, AgentOutputFrame>();
  private outputs = 0;

  constructor(
    private readonly send: (event: 'agent.output', frame: AgentOutputFrame) => boolean,
    private readonly log: Log,
  ) {}

  get size(): number {
    return this.frames.size;
  }

  add(frame: AgentOutputFrame): void {
    this.frames.set(keyOf(frame), frame);
    this.outputs += frame.outputs.length;
    while (this.outputs > MAX_OUTPUTS && this.frames.size > 1) {
      const [key, oldest] = this.frames.entries().next().value as [string, AgentOutputFrame];
      this.frames.delete(key);
      this.outputs -= oldest.outputs.length;
      this.log.warn(`dropped ${oldest.outputs.length} agent outputs never acknowledged (${key})`);
    }
    this.send('agent.output', frame);
  }

  /** Turns with output not yet acknowledged: their end may be among it. */
  turns(): { conversationId: string; turn: number }[] {
    const seen = new Map<string, { conversationId: string; turn: number }>();
    for (const { conversationId, turn } of this.frames.values()) {
      seen.set(`${conversationId}/${turn}`, { conversationId, turn });
    }
    return [...seen.values()];
  }

  /** A new connection: everything unacknowledged goes again, oldest first. */
  resend(): void {
    for (const frame of this.frames.values()) {
      if (!this.send('agent.output', frame)) return;
    }
  }

  ack(key: { conversationId: string; turn: number; fromIndex: number }): void {
    const frame = this.frames.get(keyOf(key));
    if (!frame) return;
    this.frames.delete(keyOf(key));
    this.outputs -= frame.outputs.length;
  }
}
