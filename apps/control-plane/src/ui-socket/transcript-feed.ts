import { Inject, Injectable } from '@nestjs/common';
import {
  lastPosition,
  transcriptQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import type { WebSocket } from 'ws';
import { READ_MODELS } from '../infrastructure/tokens';
import { frameText, sendText } from './ui-frames';

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
  private readonly watchers = new Map<WebSocket, Watcher>();
  /** A watcher had more than one page to send. */
  private more = false;

  constructor(@Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore) {}

  /** A browser watches a session from `after` (the last position it has), or from now. */
  watch(client: WebSocket, sessionId: string | null, after?: number): void {
    if (sessionId === null) {
      this.watchers.delete(client);
      return;
    }
    const start = after ?? this.head(sessionId);
    this.watchers.set(client, { sessionId, after: start });
    if (after !== undefined) this.send(client, this.watchers.get(client) as Watcher);
  }

  leave(client: WebSocket): void {
    this.watchers.delete(client);
  }

  /** The read models caught up: every watcher gets what came after its last entry. */
  caughtUp(): void {
    do {
      this.more = false;
      for (const [client, watcher] of this.watchers) this.send(client, watcher);
    } while (this.more);
  }

  private send(client: WebSocket, watcher: Watcher): void {
    if (client.readyState !== 1) return;
    const page = transcriptQueries(this.readModels).page(watcher.sessionId, {
      after: watcher.after,
      limit: PAGE,
    });
    if (page.entries.length === 0) return;
    watcher.after = lastPosition(page, watcher.after) ?? watcher.after;
    sendText(client, frameText('transcript', { sessionId: watcher.sessionId, ...page }));
    if (page.next !== null) this.more = true;
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
