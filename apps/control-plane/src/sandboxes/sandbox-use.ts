import { Injectable } from '@nestjs/common';
import { Clock } from '../infrastructure/clock';

/**
 * When each sandbox was last used: a command, a file read or write, a desktop tool, a live
 * view of its desktop (while it runs and when it ends). A process running alone in the box is
 * not use. Held per instance, in memory.
 */
@Injectable()
export class SandboxUse {
  private readonly last = new Map<string, number>();
  private readonly active = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  begin(sandboxId: string): () => void {
    this.touch(sandboxId);
    this.active.set(sandboxId, (this.active.get(sandboxId) ?? 0) + 1);
    return () => {
      this.active.set(sandboxId, (this.active.get(sandboxId) ?? 1) - 1);
      this.touch(sandboxId);
    };
  }

  touch(sandboxId: string): void {
    this.last.set(sandboxId, this.clock.now().getTime());
  }

  /** Milliseconds since the last use (or since `since`, whichever is later); 0 while in use. */
  idleMs(sandboxId: string, since: number): number {
    if ((this.active.get(sandboxId) ?? 0) > 0) return 0;
    const last = Math.max(this.last.get(sandboxId) ?? 0, since);
    return this.clock.now().getTime() - last;
  }
}
