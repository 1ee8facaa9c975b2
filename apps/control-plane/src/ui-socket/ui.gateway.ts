import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
} from '@nestjs/websockets';
import { Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '@sessionboxer/domain';
import type { RawData, WebSocket } from 'ws';
import { z } from 'zod';
import { toErrorAnswer } from '../errors/error-answer';
import { SessionsService } from '../sessions/sessions.service';
import { SessionFeed } from './session-feed';
import { SidebarFeed } from './sidebar-feed';
import { TranscriptFeed } from './transcript-feed';
import { errorData, sendFrame } from './ui-frames';
import { UiPresence } from './ui-presence';
import { UiSignIns } from './ui-sign-ins';

const watchFrame = z.object({
  sessionId: z.string().uuid().nullable(),
  /** The last transcript position the browser has: the feed sends what came after it. */
  after: z.number().int().min(-1).optional(),
});
const typingFrame = z.object({ typing: z.boolean() });

/** The events a browser may send; anything else is answered with an `error` frame. */
const EVENTS = new Set(['watch', 'typing']);
const MAX_FRAME = 64 * 1024;

type Reply = { event: string; data: unknown };

const invalid = (message: string): Reply => ({
  event: 'error',
  data: errorData(ErrorCode.ValidationFailed, message),
});

/**
 * The web UI's socket on the control plane's HTTP server (`/api/ui`). People's browsers say
 * which session they look at and whether they type; the control plane pushes the sidebar, the
 * watched session's transcript and state, and panes to show (docs/web-ui.md has the frames).
 */
// maxPayload bounds what ws buffers before the 64 KB check answers it.
@WebSocketGateway({ path: '/api/ui', maxPayload: 1024 * 1024 })
export class UiGateway implements OnGatewayConnection<WebSocket>, OnGatewayDisconnect<WebSocket> {
  private readonly logger = new Logger('UiGateway');
  constructor(
    private readonly presence: UiPresence,
    private readonly transcripts: TranscriptFeed,
    private readonly sidebar: SidebarFeed,
    private readonly sessionFeed: SessionFeed,
    private readonly sessions: SessionsService,
    private readonly signIns: UiSignIns,
  ) {}

  handleConnection(client: WebSocket, request: IncomingMessage): void {
    // The handshake was checked (BoxWsAdapter); the socket ends with its sign-in.
    this.signIns.join(client, request.headers);
    // Nest drops frames it cannot route without a word; the browser is told instead.
    client.on('message', (raw: RawData) => this.screen(client, raw));
    this.presence.join(client);
    this.sidebar.join(client);
  }

  handleDisconnect(client: WebSocket): void {
    this.signIns.leave(client);
    this.presence.leave(client);
    this.transcripts.leave(client);
    this.sidebar.leave(client);
    this.sessionFeed.leave(client);
  }

  @SubscribeMessage('watch')
  watch(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): Reply {
    const frame = watchFrame.safeParse(data);
    if (!frame.success) return invalid('watch needs { sessionId: uuid | null, after?: position }');
    const { sessionId, after } = frame.data;
    try {
      if (sessionId !== null) this.sessions.get(sessionId);
      this.presence.watch(client, sessionId);
      this.transcripts.watch(client, sessionId, after);
      void this.sessionFeed.watch(client, sessionId);
    } catch (e) {
      const { code, message } = toErrorAnswer(e, this.logger);
      return { event: 'error', data: errorData(code, message) };
    }
    return { event: 'watching', data: frame.data };
  }

  @SubscribeMessage('typing')
  typing(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): Reply | undefined {
    const frame = typingFrame.safeParse(data);
    if (!frame.success) return invalid('typing needs { typing: boolean }');
    this.presence.typing(client, frame.data.typing);
    return undefined;
  }

  /** Answers a frame that is not JSON `{event, data}` of a known event with an `error`. */
  private screen(client: WebSocket, raw: RawData): void {
    const problem = frameProblem(raw);
    if (problem) sendFrame(client, 'error', errorData(ErrorCode.ValidationFailed, problem));
  }
}

/** What is wrong with a browser's frame before its event's handler sees it, or null. */
function frameProblem(raw: RawData): string | null {
  const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.from(raw as ArrayBuffer);
  if (bytes.length > MAX_FRAME) return `a frame is at most ${MAX_FRAME} bytes`;
  let frame: unknown;
  try {
    frame = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'a frame is JSON {event, data}';
  }
  const event = (frame as { event?: unknown } | null)?.event;
  if (typeof frame !== 'object' || frame === null || typeof event !== 'string')
    return 'a frame is JSON {event, data}';
  if (!EVENTS.has(event))
    return `unknown event ${JSON.stringify(event.slice(0, 100))}: a browser sends watch or typing`;
  return null;
}
