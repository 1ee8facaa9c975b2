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
import type { TypingFrame, UiServerFrame, WatchFrame } from '@sessionboxer/contracts';
import { ErrorCode } from '@sessionboxer/domain';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { toErrorAnswer } from '../errors/error-answer';
import { JSON_MAX_BYTES } from '../errors/json-policy';
import { SessionsService } from '../sessions';
import { BoxTerminalKeys } from './box-terminal-keys';
import { InboxFeed } from './inbox-feed';
import { SessionFeed } from './session-feed';
import { SidebarFeed } from './sidebar-feed';
import { TranscriptFeed } from './transcript-feed';
import { errorData } from '../presence';
import { UiPresence } from '../presence';
import { UiSignIns } from './ui-sign-ins';

// Each schema checks its frame of the contracts' UiClientEvents.
const watchFrame: z.ZodType<WatchFrame> = z.object({
  sessionId: z.string().uuid().nullable(),
  /** The last transcript position the browser has: the feed sends what came after it. */
  after: z.number().int().min(-1).optional(),
});
const typingFrame: z.ZodType<TypingFrame> = z.object({ typing: z.boolean() });

type Reply = UiServerFrame;

const invalid = (message: string): Reply => ({
  event: 'error',
  data: errorData(ErrorCode.ValidationFailed, message),
});

/**
 * The web UI's socket on the control plane's HTTP server (`/api/ui`). People's browsers say
 * which session they look at and whether they type; the control plane pushes the sidebar, the
 * watched session's transcript and state, and panes to show (docs/web-ui.md has the frames).
 */
// Frames are read under the JSON policy (BoxWsAdapter): a frame over its limit is answered with
// an `error` frame, up to twice the limit; ws closes the socket (1009) on anything larger.
@WebSocketGateway({ path: '/api/ui', maxPayload: 2 * JSON_MAX_BYTES })
export class UiGateway implements OnGatewayConnection<WebSocket>, OnGatewayDisconnect<WebSocket> {
  private readonly logger = new Logger('UiGateway');
  constructor(
    private readonly presence: UiPresence,
    private readonly transcripts: TranscriptFeed,
    private readonly sidebar: SidebarFeed,
    private readonly sessionFeed: SessionFeed,
    private readonly sessions: SessionsService,
    private readonly signIns: UiSignIns,
    private readonly inbox: InboxFeed,
    private readonly terminalKeys: BoxTerminalKeys,
  ) {}

  handleConnection(client: WebSocket, request: IncomingMessage): void {
    // The handshake was checked (BoxWsAdapter); the socket ends with its sign-in.
    this.signIns.join(client, request.headers);
    this.presence.join(client);
    this.sidebar.join(client);
    this.terminalKeys.join(client, request.headers);
    void this.inbox.join(client, request.headers).catch((e: unknown) => {
      this.logger.warn(`the inbox feed could not join a browser: ${String(e)}`);
    });
  }

  handleDisconnect(client: WebSocket): void {
    this.signIns.leave(client);
    this.presence.leave(client);
    this.transcripts.leave(client);
    this.sidebar.leave(client);
    this.inbox.leave(client);
    this.sessionFeed.leave(client);
    this.terminalKeys.leave(client);
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

  /** Keystrokes for a box Terminal's PTY; a refusal comes back as an `error` frame. */
  @SubscribeMessage('session.terminal.input')
  terminalInput(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): void {
    this.terminalKeys.handle(client, 'session.terminal.input', data);
  }

  @SubscribeMessage('session.terminal.resize')
  terminalResize(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): void {
    this.terminalKeys.handle(client, 'session.terminal.resize', data);
  }
}
