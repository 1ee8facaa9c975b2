import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  lastPosition,
  transcriptQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { WebSocket } from 'ws';
import { READ_MODELS } from '../infrastructure/tokens';
import { frameText, sendText } from '../presence';

interface Watcher {
  sessionId: string;
  /** The position of the last entry sent (or the one the browser said it has). */
  after: number;
}

const PAGE = 500;

/**
 * Live transcripts for the web UI: a browser that watches a session gets a `transcript`
 * frame with the new entries each time the read models caught up (UiFeed says when), in
 * order and without gaps (each frame continues from the last entry sent).
 */
@Injectable()
export class TranscriptFeed {
  private readonly logger = new Logger('TranscriptFeed');
  private readonly watchers = new Map<WebSocket, Watcher>();
  constructor(@Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore) {}

  /** A browser watches a session from `after` (the last position it has), or from now. */
  watch(client: WebSocket, sessionId: string | null, after?: number): void {
    if (sessionId === null) {
      this.watchers.delete(client);
      return;
    }
    const watcher = { sessionId, after: after ?? this.head(sessionId) };
    this.watchers.set(client, watcher);
    // A browser far behind (a reconnect after a long turn) gets every page now, not one.
    if (after !== undefined) while (this.send(client, watcher));
  }

  leave(client: WebSocket): void {
    this.watchers.delete(client);
  }

  /** The read models caught up: every watcher gets what came after its last entry. */
  caughtUp(): void {
    for (const [client, watcher] of this.watchers) {
      try {
        while (this.send(client, watcher));
      } catch (e) {
        // One browser's failure (a closed socket, a bad read) never stops the others' frames.
        this.logger.warn(
          `transcript frame not sent: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  }

  /** Sends the next page after the watcher's last entry; true when another page follows. */
  private send(client: WebSocket, watcher: Watcher): boolean {
    if (client.readyState !== 1) return false;
    const page = transcriptQueries(this.readModels).page(watcher.sessionId, {
      after: watcher.after,
      limit: PAGE,
    });
    if (page.entries.length === 0) return false;
    watcher.after = lastPosition(page, watcher.after) ?? watcher.after;
    sendText(client, frameText('transcript', { sessionId: watcher.sessionId, ...page }));
    return page.next !== null;
  }

  private head(sessionId: string): number {
    let after = -1;
    for (;;) {
      const page = transcriptQueries(this.readModels).page(sessionId, { after, limit: PAGE });
      after = lastPosition(page, after) ?? after;
      if (page.next === null) return after;
    }
  }
}
