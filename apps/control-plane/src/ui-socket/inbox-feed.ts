import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { AuthService } from '../auth';
import { InboxService } from '../inbox';
import { frameText, sendText } from '../presence';

interface Client {
  /** The person signed in on this socket (the inbox and its read state are theirs). */
  username: string;
  /** The text of the last inbox frame it got. */
  last: string;
}

/**
 * Each browser's inbox: an `inbox` frame (the body of `GET /api/inbox` for its person) at
 * connection, then again whenever that person's inbox is not the one it last got: a new item,
 * one answered or expired, or one read in another tab. The person is the socket's sign-in.
 */
@Injectable()
export class InboxFeed {
  private readonly clients = new Map<WebSocket, Client>();

  constructor(
    private readonly auth: AuthService,
    private readonly inbox: InboxService,
  ) {}

  async join(client: WebSocket, headers: IncomingHttpHeaders): Promise<void> {
    const username = await this.auth.identify(headers);
    if (username === null || client.readyState !== 1) return;
    const frame = this.frame(username);
    this.clients.set(client, { username, last: sendText(client, frame) ? frame : '' });
  }

  leave(client: WebSocket): void {
    this.clients.delete(client);
  }

  /** The read models caught up: one read per person, sent to each socket that has another. */
  caughtUp(): void {
    const frames = new Map<string, string>();
    for (const [client, c] of this.clients) {
      let frame = frames.get(c.username);
      if (frame === undefined) {
        frame = this.frame(c.username);
        frames.set(c.username, frame);
      }
      if (c.last !== frame && sendText(client, frame)) c.last = frame;
    }
  }

  private frame(username: string): string {
    return frameText('inbox', this.inbox.list({ kind: 'person', id: username }));
  }
}
