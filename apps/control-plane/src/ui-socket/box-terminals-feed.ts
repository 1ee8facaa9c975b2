import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Terminals } from '../boxes';
import { UiPresence } from '../presence';

/**
 * Box Terminals' output, live: each batch the box sent goes, once recorded, as a
 * `session.terminal.output` frame to every browser watching its session. A browser that opens
 * a pane (or reconnects) reads what it missed by offset over REST first; the pane keeps bytes
 * by offset, so nothing shows twice.
 */
@Injectable()
export class BoxTerminalsFeed implements OnModuleDestroy {
  private readonly unsubscribe: () => void;

  constructor(terminals: Terminals, presence: UiPresence) {
    this.unsubscribe = terminals.onOutput(({ sessionId, terminalId, offset, data }) =>
      presence.broadcast(sessionId, 'session.terminal.output', {
        sessionId,
        terminalId,
        offset,
        data,
      }),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}
