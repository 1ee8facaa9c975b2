import { Injectable, Logger } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { toErrorAnswer } from '../errors/error-answer';
import { SessionState } from './session-state';
import { errorData, frameText, sendFrame, sendText } from '../presence';

interface Watcher {
  sessionId: string;
  /** The text of the last `session` frame this browser got; null before the first. */
  last: string | null;
}

/**
 * The `session` frame for each browser watching a session: at `watch`, then whenever any part
 * of it changed after the read models caught up. Each watched session is read once per
 * catch-up; a browser gets the frame only when it differs from the last one it got. Reads and
 * sends run one after another, so a browser never gets an older state after a newer one.
 */
@Injectable()
export class SessionFeed {
  private readonly logger = new Logger('SessionFeed');
  private readonly watchers = new Map<WebSocket, Watcher>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly state: SessionState) {}

  /** A browser shows this session (null: none); it gets the session's frame at once. */
  watch(client: WebSocket, sessionId: string | null): Promise<void> {
    if (sessionId === null) {
      this.watchers.delete(client);
      return Promise.resolve();
    }
    const watcher: Watcher = { sessionId, last: null };
    this.watchers.set(client, watcher);
    return this.serially(async () => {
      try {
        this.deliver(client, watcher, frameText('session', await this.state.build(sessionId)));
      } catch (e) {
        const { code, message } = toErrorAnswer(e, this.logger);
        if (this.watchers.get(client) === watcher)
          sendFrame(client, 'error', errorData(code, message));
      }
    });
  }

  leave(client: WebSocket): void {
    this.watchers.delete(client);
  }

  /** The read models caught up: each watched session read once, sent where it changed. */
  caughtUp(): Promise<void> {
    if (this.watchers.size === 0) return this.queue;
    return this.serially(async () => {
      const sessions = new Set([...this.watchers.values()].map((w) => w.sessionId));
      for (const sessionId of sessions) {
        let frame: string;
        try {
          frame = frameText('session', await this.state.build(sessionId));
        } catch (e) {
          toErrorAnswer(e, this.logger);
          continue;
        }
        for (const [client, watcher] of this.watchers) {
          if (watcher.sessionId === sessionId) this.deliver(client, watcher, frame);
        }
      }
    });
  }

  /** Sends the frame unless the browser moved on meanwhile or already has exactly this. */
  private deliver(client: WebSocket, watcher: Watcher, frame: string): void {
    if (this.watchers.get(client) !== watcher || watcher.last === frame) return;
    if (sendText(client, frame)) watcher.last = frame;
  }

  private serially(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task).catch((e: unknown) => {
      this.logger.warn(`session frames: ${e instanceof Error ? e.message : String(e)}`);
    });
    this.queue = run;
    return run;
  }
}
