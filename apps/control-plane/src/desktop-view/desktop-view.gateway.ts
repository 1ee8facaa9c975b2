import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Logger } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { sessionDetailsQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { AuthService } from '../auth';
import { DaemonChannel } from '../boxes';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { DesktopViewSockets } from './desktop-view-sockets';
import { recordViewOpened } from './desktop-view-record';
import { relayDesktopView } from './desktop-view-relay';

export const DESKTOP_VIEW_PATH = '/api/desktop-view';
const START_TIMEOUT_MS = 10_000;

const query = z.object({
  session: z.string().uuid({ message: 'session must be a session id' }),
  control: z.enum(['0', '1'], { message: 'control must be 0 or 1' }).default('0'),
});

/** Close codes the page shows the reason of (4000–4999 are the application's). */
const CLOSE = { invalid: 4400, signedOut: 4401, notFound: 4404, unavailable: 4409, limit: 4429 };

function closeCode(e: unknown): number {
  if (!(e instanceof DomainError)) return CLOSE.unavailable;
  if (e.code === ErrorCode.LimitReached) return CLOSE.limit;
  if (e.code === ErrorCode.NotFound) return CLOSE.notFound;
  if (e.code === ErrorCode.ValidationFailed) return CLOSE.invalid;
  return CLOSE.unavailable;
}

/** A close reason is at most 123 bytes. */
const reasonText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 120);

/**
 * The live desktop view (`/api/desktop-view?session=<id>&control=0|1`): a signed-in person's
 * noVNC on one end, the box's x11vnc on the other (docs/web-ui.md). The handshake needed a
 * signed-in person (BoxWsAdapter); who they are is read from it again here. Its frames are
 * binary RFB, not JSON: this gateway has no message handlers and relays them itself.
 */
@WebSocketGateway({ path: DESKTOP_VIEW_PATH, maxPayload: 1024 * 1024 })
export class DesktopViewGateway implements OnGatewayConnection<WebSocket> {
  private readonly logger = new Logger('DesktopView');

  constructor(
    private readonly auth: AuthService,
    private readonly channel: DaemonChannel,
    private readonly sockets: DesktopViewSockets,
    private readonly bus: CommandBus,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  handleConnection(client: WebSocket, request: IncomingMessage): void {
    const early: Buffer[] = [];
    const keep = (data: Buffer) => early.push(data);
    client.on('message', keep);
    const detach = () => client.off('message', keep);
    this.start(client, request, early, detach)
      .catch((e: unknown) => {
        if (client.readyState === client.OPEN) client.close(closeCode(e), reasonText(e));
      })
      .finally(detach);
  }

  private async start(
    client: WebSocket,
    request: IncomingMessage,
    early: Buffer[],
    detachEarly: () => void,
  ): Promise<void> {
    const params = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const parsed = query.safeParse(Object.fromEntries(params));
    if (!parsed.success) {
      throw new DomainError(ErrorCode.ValidationFailed, parsed.error.issues[0].message);
    }
    const sessionId = parsed.data.session;
    const control = parsed.data.control === '1';
    const username = await this.auth.identify(request.headers);
    if (username === null) return client.close(CLOSE.signedOut, 'sign in first');
    if (!sessionDetailsQueries(this.readModels).get(sessionId)) {
      throw new DomainError(ErrorCode.NotFound, `no session ${sessionId}`);
    }
    if (!this.channel.isConnected(sessionId)) {
      throw new DomainError(ErrorCode.Unavailable, "the session's box is not running");
    }
    const viewId = randomUUID();
    const actor = { kind: 'person', id: username } as const;
    const record = await recordViewOpened(
      this.bus,
      this.logger,
      { target: 'session', targetId: sessionId, viewId, control },
      actor,
    );
    const arrival = this.sockets.expect(sessionId, viewId, START_TIMEOUT_MS);
    const leftEarly = () => this.sockets.forget(sessionId, viewId);
    client.once('close', leftEarly);
    let box;
    try {
      await this.channel.request(sessionId, 'desktop.view', { viewId, control }, START_TIMEOUT_MS);
      box = await arrival;
    } catch (e) {
      arrival.catch(() => undefined);
      this.sockets.forget(sessionId, viewId);
      this.channel.push(sessionId, 'desktop.view.close', { viewId });
      await record('failed');
      throw e;
    } finally {
      client.off('close', leftEarly);
    }
    if (client.readyState !== client.OPEN) {
      box.destroy();
      this.channel.push(sessionId, 'desktop.view.close', { viewId });
      return void (await record('closed'));
    }
    detachEarly();
    const reason = await relayDesktopView(client, box, early.splice(0));
    this.channel.push(sessionId, 'desktop.view.close', { viewId });
    await record(reason);
  }
}
