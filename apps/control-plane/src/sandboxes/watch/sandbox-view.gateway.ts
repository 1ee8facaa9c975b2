import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Inject, Logger, Optional } from '@nestjs/common';
import { WebSocketGateway, type OnGatewayConnection } from '@nestjs/websockets';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { DEFAULT_ORG_ID } from '@sessionboxer/domain/org';
import { noDesktop, noSandbox, refusal, refusalCode } from '@sessionboxer/domain/sandbox';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { sandboxQueries, type SandboxDoc } from '@sessionboxer/projections/sandboxes.projection';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { AuthService } from '../../auth';
import { recordViewOpened, relayDesktopView } from '../../desktop-view';
import { CommandBus } from '../../infrastructure/command-bus';
import { READ_MODELS } from '../../infrastructure/tokens';
import { desktopProcesses } from '../desktop/desktop-launch';
import { SandboxBoxes } from '../sandbox-boxes';
import { SandboxUse } from '../sandbox-use';
import { openBoxVnc } from './box-vnc';
import {
  SANDBOX_VIEW_TOKENS,
  firstTextFrame,
  tokenViewer,
  viewerActor,
  wantsToken,
  type SandboxViewTokens,
  type SandboxViewer,
} from './sandbox-viewer';

export const SANDBOX_VIEW_PATH = '/api/sandbox-view';

const query = z.object({
  sandbox: z.string().uuid({ message: 'sandbox must be a sandbox id' }),
  control: z.enum(['0', '1'], { message: 'control must be 0 or 1' }).default('0'),
});

/** Close codes the watch page shows the reason of; the reason starts with the spec's code. */
const CLOSE: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.ValidationFailed]: 4400,
  [ErrorCode.Unauthenticated]: 4401,
  [ErrorCode.Forbidden]: 4403,
  [ErrorCode.NotFound]: 4404,
  [ErrorCode.LimitReached]: 4429,
};
/** no_desktop, not_running and anything unavailable. */
const CLOSE_UNAVAILABLE = 4409;

function closeOf(e: unknown): { code: number; reason: string } {
  const message = e instanceof Error ? e.message : String(e);
  if (!(e instanceof DomainError))
    return { code: CLOSE_UNAVAILABLE, reason: message.slice(0, 120) };
  // A close reason is at most 123 bytes.
  const reason = `${refusalCode(e)}: ${message}`;
  return {
    code: CLOSE[e.code] ?? CLOSE_UNAVAILABLE,
    reason: Buffer.from(reason).subarray(0, 120).toString(),
  };
}

/**
 * A sandbox desktop's live view (`/api/sandbox-view?sandbox=<id>&control=0|1`), the socket of
 * the watch page (`/sandboxes/<id>/watch`, docs/SANDBOXES.md): noVNC in the page, an x11vnc
 * run for this view in the sandbox's box, relayed as the session desktop's view is. The viewer
 * is a signed-in person (the cookie) or, with the TOKEN_PROTOCOL subprotocol, a sandbox token
 * sent as the first text frame. Each view opened and closed is an event of the sandbox's
 * desktop-view stream.
 */
@WebSocketGateway({ path: SANDBOX_VIEW_PATH, maxPayload: 1024 * 1024, selfAuthenticated: true })
export class SandboxViewGateway implements OnGatewayConnection<WebSocket> {
  private readonly logger = new Logger('SandboxView');

  constructor(
    private readonly auth: AuthService,
    private readonly boxes: SandboxBoxes,
    private readonly bus: CommandBus,
    private readonly use: SandboxUse,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    @Optional() @Inject(SANDBOX_VIEW_TOKENS) private readonly tokens: SandboxViewTokens | null,
  ) {}

  handleConnection(client: WebSocket, request: IncomingMessage): void {
    client.on('error', () => undefined);
    this.start(client, request).catch((e: unknown) => {
      if (client.readyState !== client.OPEN) return;
      const { code, reason } = closeOf(e);
      client.close(code, reason);
    });
  }

  private async start(client: WebSocket, request: IncomingMessage): Promise<void> {
    const params = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const parsed = query.safeParse(Object.fromEntries(params));
    if (!parsed.success) {
      throw new DomainError(ErrorCode.ValidationFailed, parsed.error.issues[0].message);
    }
    const sandboxId = parsed.data.sandbox;
    const control = parsed.data.control === '1';
    const viewer = await this.viewer(client, request, sandboxId, control);
    const doc = this.visible(viewer, sandboxId);
    const display = await this.desktopOf(doc);
    const early: Buffer[] = [];
    const keep = (data: Buffer) => early.push(data);
    client.on('message', keep);
    try {
      await this.watch(client, viewer, sandboxId, display, control, early);
    } finally {
      client.off('message', keep);
    }
  }

  /** Records the view opened, relays it to a new x11vnc, records why it closed. */
  private async watch(
    client: WebSocket,
    viewer: SandboxViewer,
    sandboxId: string,
    display: string,
    control: boolean,
    early: Buffer[],
  ): Promise<void> {
    const viewId = randomUUID();
    const actor = viewerActor(viewer);
    const tokenId = viewer.kind === 'token' ? viewer.identity.tokenId : undefined;
    const record = await recordViewOpened(
      this.bus,
      this.logger,
      { target: 'sandbox', targetId: sandboxId, viewId, control, tokenId },
      actor,
    );
    let vnc;
    try {
      vnc = await openBoxVnc(this.boxes.driverPort, sandboxId, display, control);
    } catch (e) {
      await record('failed');
      throw e;
    }
    if (client.readyState !== client.OPEN) {
      vnc.stream.destroy();
      return void (await record('closed'));
    }
    // A person watching or driving the desktop is using the sandbox: no idle stop under them.
    const done = this.use.begin(sandboxId);
    const reason = await relayDesktopView(client, vnc.stream, early.splice(0)).finally(done);
    if (reason === 'box_gone') {
      const { exitCode, signalCode } = vnc.child;
      const why = vnc.stderr().trim().split('\n').slice(-3).join(' | ');
      this.logger.warn(`x11vnc of ${sandboxId} ended (${exitCode ?? signalCode}): ${why}`);
    }
    await record(reason);
  }

  private async viewer(
    client: WebSocket,
    request: IncomingMessage,
    sandboxId: string,
    control: boolean,
  ): Promise<SandboxViewer> {
    if (wantsToken(request)) {
      const bearer = await firstTextFrame(client);
      const origin = request.headers.origin;
      return tokenViewer(this.tokens, bearer, origin, sandboxId, control);
    }
    const username = await this.auth.identify(request.headers);
    if (username === null) {
      throw new DomainError(
        ErrorCode.Unauthenticated,
        'sign in first, or open the watch link with its #token=',
      );
    }
    return { kind: 'person', username };
  }

  /** A person sees their org's sandboxes (as the Sandboxes page); a token its own one. */
  private visible(viewer: SandboxViewer, sandboxId: string): SandboxDoc {
    const doc = sandboxQueries(this.readModels).get(sandboxId);
    const org = viewer.kind === 'person' ? DEFAULT_ORG_ID : viewer.identity.orgId;
    if (!doc || doc.status === 'deleted' || doc.settings?.orgId !== org) throw noSandbox(sandboxId);
    return doc;
  }

  /** The display of the sandbox's running desktop: not_running, no_desktop otherwise. */
  private async desktopOf(doc: SandboxDoc): Promise<string> {
    const name = doc.settings?.name ?? doc.id;
    if (doc.status !== 'running') {
      throw refusal(
        'not_running',
        ErrorCode.InvalidState,
        `sandbox ${name} is ${doc.status}: resume it first`,
      );
    }
    if (!doc.desktop?.running) throw noDesktop(name);
    if (this.boxes.driverPort.info(doc.id)?.status !== 'running') throw noDesktop(name);
    const alive = await desktopProcesses(this.boxes.driverPort, doc.id);
    if (!alive.xvfb) throw noDesktop(name);
    return doc.desktop.display;
  }
}
