import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
} from '@nestjs/websockets';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { TranscriptFeed } from './transcript-feed';
import { UiPresence } from './ui-presence';

const watchFrame = z.object({
  sessionId: z.string().uuid().nullable(),
  /** The last transcript position the browser has: the feed sends what came after it. */
  after: z.number().int().min(-1).optional(),
});
const typingFrame = z.object({ typing: z.boolean() });

/**
 * The web UI's socket on the control plane's HTTP server (`/api/ui`). People's browsers say
 * which session they look at and whether they type; the control plane pushes panes to show.
 * Like the admin API it is loopback-only until people sign in (the web UI issue).
 */
@WebSocketGateway({ path: '/api/ui' })
export class UiGateway implements OnGatewayConnection<WebSocket>, OnGatewayDisconnect<WebSocket> {
  constructor(
    private readonly presence: UiPresence,
    private readonly transcripts: TranscriptFeed,
  ) {}

  handleConnection(client: WebSocket): void {
    this.presence.join(client);
  }

  handleDisconnect(client: WebSocket): void {
    this.presence.leave(client);
    this.transcripts.leave(client);
  }

  @SubscribeMessage('watch')
  watch(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): { event: string; data: unknown } {
    const frame = watchFrame.safeParse(data);
    if (!frame.success)
      return {
        event: 'error',
        data: { message: 'watch needs { sessionId: uuid | null, after?: position }' },
      };
    this.presence.watch(client, frame.data.sessionId);
    this.transcripts.watch(client, frame.data.sessionId, frame.data.after);
    return { event: 'watching', data: frame.data };
  }

  @SubscribeMessage('typing')
  typing(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): void {
    const frame = typingFrame.safeParse(data);
    if (frame.success) this.presence.typing(client, frame.data.typing);
  }
}
