import { Injectable } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { SessionsService } from '../sessions';
import { frameText, sendText } from '../presence';

/**
 * The sidebar for every connected browser: a `sidebar` frame `{nodes}` (the body of
 * `GET /api/sidebar`) at connection, then again only when the tree is not the one it last got.
 */
@Injectable()
export class SidebarFeed {
  /** Each browser and the text of the last sidebar frame it got. */
  private readonly clients = new Map<WebSocket, string>();

  constructor(private readonly sessions: SessionsService) {}

  join(client: WebSocket): void {
    const frame = this.frame();
    if (sendText(client, frame)) this.clients.set(client, frame);
    else this.clients.set(client, '');
  }

  leave(client: WebSocket): void {
    this.clients.delete(client);
  }

  /** The read models caught up: one read of the tree, sent to whoever has another. */
  caughtUp(): void {
    if (this.clients.size === 0) return;
    const frame = this.frame();
    for (const [client, last] of this.clients) {
      if (last !== frame && sendText(client, frame)) this.clients.set(client, frame);
    }
  }

  private frame(): string {
    // Archived ones too: the browser's "Show archived" toggle filters them.
    return frameText('sidebar', { nodes: this.sessions.tree({ archived: true }) });
  }
}
