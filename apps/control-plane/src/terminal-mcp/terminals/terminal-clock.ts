import { Injectable } from '@nestjs/common';

interface Timer {
  due: number;
  fn: () => void;
  handle: NodeJS.Timeout;
}

/**
 * The terminal MCP's time: sign timeouts and leases. Real time, with a seam: `advance(ms)`
 * moves this clock forward and fires what fell due, so a test sees a 60 s sign timeout
 * without waiting 60 s (and the deciders see the advanced time in the commands' `at`).
 */
@Injectable()
export class TerminalClock {
  private skew = 0;
  private readonly timers = new Set<Timer>();

  now(): Date {
    return new Date(Date.now() + this.skew);
  }

  /** Calls `fn` after `ms`; returns a cancel function. */
  after(ms: number, fn: () => void): () => void {
    const timer: Timer = {
      due: this.now().getTime() + ms,
      fn,
      handle: setTimeout(() => this.fire(timer), ms),
    };
    timer.handle.unref();
    this.timers.add(timer);
    return () => {
      clearTimeout(timer.handle);
      this.timers.delete(timer);
    };
  }

  /** The seam: time moves on by `ms`, and every timer now due fires. */
  advance(ms: number): void {
    this.skew += ms;
    const now = this.now().getTime();
    for (const timer of [...this.timers]) if (timer.due <= now) this.fire(timer);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer.handle);
    this.timers.clear();
  }

  private fire(timer: Timer): void {
    if (!this.timers.delete(timer)) return;
    clearTimeout(timer.handle);
    timer.fn();
  }
}
