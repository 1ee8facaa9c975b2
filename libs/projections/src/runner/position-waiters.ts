import type { Checkpoint } from '../store/read-model-store';

export type ReadModelLagReason = 'timeout' | 'projection-failed' | 'stopped';

/** Read-your-writes could not be given: the read models did not (or cannot) reach a position. */
export class ReadModelLagError extends Error {
  constructor(
    readonly reason: ReadModelLagReason,
    readonly position: number,
    readonly checkpoints: readonly Checkpoint[],
    message: string,
  ) {
    super(message);
    this.name = 'ReadModelLagError';
  }
}

interface Waiter {
  position: number;
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

function where(checkpoints: readonly Checkpoint[]): string {
  return checkpoints.map((c) => `${c.projection} at ${c.position}`).join(', ');
}

/**
 * 'reached' when every projection has applied `position`; an error when one never will (it
 * stopped on an earlier event); null while it may still come.
 */
function verdict(position: number, checkpoints: readonly Checkpoint[]): 'reached' | Error | null {
  if (checkpoints.every((c) => c.position >= position)) return 'reached';
  const stuck = checkpoints.find((c) => c.failure !== null && c.position < position);
  if (stuck?.failure == null) return null;
  const f = stuck.failure;
  return new ReadModelLagError(
    'projection-failed',
    position,
    checkpoints,
    `read model ${stuck.projection} will not reach position ${position}: it stopped at ` +
      `${stuck.position} because it cannot apply event ${f.eventId} (${f.eventType}) at ` +
      `position ${f.position}: ${f.message}`,
  );
}

/** The callers of ProjectionRunner.waitForPosition, settled after each applied batch. */
export class PositionWaiters {
  private readonly waiting = new Set<Waiter>();

  /** Settled at once when the answer is known now, else null. */
  check(position: number, checkpoints: readonly Checkpoint[]): Promise<void> | null {
    const v = verdict(position, checkpoints);
    if (v === null) return null;
    return v === 'reached' ? Promise.resolve() : Promise.reject(v);
  }

  add(position: number, timeoutMs: number, now: () => Checkpoint[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(waiter);
        const message =
          `read models did not reach position ${position} within ${timeoutMs} ms ` +
          `(${where(now())})`;
        reject(new ReadModelLagError('timeout', position, now(), message));
      }, timeoutMs);
      const waiter: Waiter = { position, resolve, reject, timer };
      this.waiting.add(waiter);
    });
  }

  settle(checkpoints: readonly Checkpoint[]): void {
    for (const waiter of this.waiting) {
      const v = verdict(waiter.position, checkpoints);
      if (v === null) continue;
      this.finish(waiter);
      if (v === 'reached') waiter.resolve();
      else waiter.reject(v);
    }
  }

  rejectAll(checkpoints: readonly Checkpoint[]): void {
    for (const waiter of this.waiting) {
      this.finish(waiter);
      const message = `projection runner stopped before position ${waiter.position} (${where(checkpoints)})`;
      waiter.reject(new ReadModelLagError('stopped', waiter.position, checkpoints, message));
    }
  }

  private finish(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.waiting.delete(waiter);
  }
}
