import { Injectable, Logger } from '@nestjs/common';
import {
  type Actor,
  egressLogDecider,
  egressStream,
  type RecordEgress,
} from '@sessionboxer/domain';
import { CommandBus } from '../infrastructure/command-bus';

const SYSTEM: Actor = { kind: 'system', id: 'egress' };

/**
 * Records every connection the proxy decided (EgressAllowed, EgressRefused) in the session's
 * egress stream, in the order they were decided. The box's connection never waits for it: a
 * record that cannot be written is logged, and the connection was decided all the same.
 */
@Injectable()
export class EgressRecorder {
  private readonly logger = new Logger('Egress');
  private readonly tails = new Map<string, Promise<void>>();

  constructor(private readonly bus: CommandBus) {}

  record(data: RecordEgress['data']): Promise<void> {
    const { sessionId } = data;
    const previous = this.tails.get(sessionId) ?? Promise.resolve();
    const next = previous.then(() => this.write(data));
    this.tails.set(sessionId, next);
    void next.finally(() => {
      if (this.tails.get(sessionId) === next) this.tails.delete(sessionId);
    });
    return next;
  }

  private async write(data: RecordEgress['data']): Promise<void> {
    try {
      await this.bus.execute(
        egressLogDecider,
        egressStream(data.sessionId),
        { type: 'RecordEgress', data, metadata: this.bus.metadata(SYSTEM) },
        { wait: false },
      );
    } catch (e) {
      this.logger.warn(
        `could not record egress of ${data.sessionId} to ${data.host}: ${String(e)}`,
      );
    }
  }

  /** Resolves when everything decided so far is recorded (shutdown, tests). */
  async flushed(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
