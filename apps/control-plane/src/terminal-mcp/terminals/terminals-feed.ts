import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { SshTerminalView } from '@sessionboxer/contracts';
import { UiPresence } from '../../presence';
import type { TerminalRuntime } from './terminal-runtime';

const OUTPUT_EVERY_MS = 50;
/** A frame carries at most this many bytes; a flood is sent as several. */
const FRAME_BYTES = 256 * 1024;

/**
 * Pushes the SSH terminals to every browser over `/api/ui`: the list (its pending entries
 * are the approval cards) when one changes, and new output for the live xterm views, at most
 * every 50 ms per terminal. A browser that connects later reads both over REST first.
 */
@Injectable()
export class TerminalsFeed implements BeforeApplicationShutdown {
  private stopped = false;
  private listTimer: NodeJS.Timeout | null = null;
  private readonly sent = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly presence: UiPresence) {}

  changed(list: () => SshTerminalView[]): void {
    if (this.stopped) return;
    this.listTimer ??= setTimeout(() => {
      this.listTimer = null;
      if (!this.stopped) this.presence.broadcastAll('terminals', list());
    }, 10);
  }

  output(rt: TerminalRuntime): void {
    if (this.stopped || this.timers.has(rt.sessionId)) return;
    this.timers.set(
      rt.sessionId,
      setTimeout(() => this.send(rt), OUTPUT_EVERY_MS),
    );
  }

  /** The stores close after this: nothing may read them from a timer any more. */
  beforeApplicationShutdown(): void {
    this.stopped = true;
    if (this.listTimer) clearTimeout(this.listTimer);
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private send(rt: TerminalRuntime): void {
    this.timers.delete(rt.sessionId);
    const from = this.sent.get(rt.sessionId) ?? 0;
    const to = Math.min(rt.buffer.length, from + FRAME_BYTES);
    if (to <= from) return;
    this.sent.set(rt.sessionId, to);
    const data = rt.buffer.bytes(from, to).toString('base64');
    this.presence.broadcastAll('terminal.output', { terminalId: rt.sessionId, offset: from, data });
    if (to < rt.buffer.length) this.output(rt);
  }
}
