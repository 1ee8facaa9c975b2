import { Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
} from '@nestjs/websockets';
import {
  helloFrame,
  terminalExitedFrame,
  terminalOpenedFrame,
  type CallResult,
} from '@sessionboxer/mcp-adapters';
import type { WebSocket } from 'ws';
import { HarnessOutputRecorder, type AgentAck } from '../agent/harness-output.recorder';
import { TurnDispatcher } from '../agent/turn-dispatcher';
import { BoxLifecycle } from '../box-lifecycle/box-lifecycle.service';
import { BOX_GATEWAY_PATH, BoxSockets } from './box-sockets';
import { CallService } from './call.service';
import { DaemonChannel, type DaemonAnswer } from './daemon-channel';

/**
 * The gateway box daemons connect to, one socket per box. Thin: every frame is bound to the
 * session of the socket it came on, validated, and handed to one service.
 */
@WebSocketGateway({ path: BOX_GATEWAY_PATH })
export class BoxGateway implements OnGatewayConnection<WebSocket>, OnGatewayDisconnect<WebSocket> {
  private readonly logger = new Logger('BoxGateway');

  constructor(
    private readonly sockets: BoxSockets,
    private readonly calls: CallService,
    private readonly channel: DaemonChannel,
    private readonly boxes: BoxLifecycle,
    private readonly outputs: HarnessOutputRecorder,
    private readonly turns: TurnDispatcher,
  ) {}

  handleConnection(client: WebSocket): void {
    const sessionId = this.sockets.sessionOf(client);
    if (!sessionId) {
      client.close(1008, 'not a box socket');
      return;
    }
    void this.boxes.daemonConnected(sessionId).catch((e: unknown) => this.warn(sessionId, e));
  }

  handleDisconnect(client: WebSocket): void {
    const sessionId = this.sockets.sessionOf(client);
    const wasCurrent = sessionId !== undefined && this.sockets.clientOf(sessionId) === client;
    this.sockets.release(client);
    if (sessionId && wasCurrent) {
      void this.boxes.daemonDisconnected(sessionId).catch((e: unknown) => this.warn(sessionId, e));
    }
  }

  @SubscribeMessage('call')
  async call(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<{ event: 'result'; data: CallResult }> {
    const sessionId = this.sockets.sessionOf(client) as string;
    return { event: 'result', data: await this.calls.handle(sessionId, data) };
  }

  @SubscribeMessage('hello')
  async hello(@ConnectedSocket() client: WebSocket, @MessageBody() data: unknown): Promise<void> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const parsed = helloFrame.safeParse(data);
    if (!parsed.success) {
      this.logger.warn(`bad hello from box ${sessionId}`);
      return;
    }
    await this.turns
      .hello(sessionId, parsed.data.turns)
      .catch((e: unknown) => this.warn(sessionId, e));
  }

  /** A harness's outputs; acknowledged once recorded, so the daemon stops resending them. */
  @SubscribeMessage('agent.output')
  async agentOutput(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<{ event: 'agent.ack'; data: AgentAck } | undefined> {
    const sessionId = this.sockets.sessionOf(client) as string;
    try {
      const ack = await this.outputs.record(sessionId, data);
      return ack ? { event: 'agent.ack', data: ack } : undefined;
    } catch (e) {
      this.warn(sessionId, e);
      return undefined;
    }
  }

  @SubscribeMessage('terminal.opened')
  async terminalOpened(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<void> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const frame = terminalOpenedFrame.safeParse(data);
    if (frame.success)
      await this.boxes
        .terminalOpened(sessionId, frame.data)
        .catch((e: unknown) => this.warn(sessionId, e));
  }

  @SubscribeMessage('terminal.exited')
  async terminalExited(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<void> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const frame = terminalExitedFrame.safeParse(data);
    if (frame.success)
      await this.boxes
        .terminalExited(sessionId, frame.data)
        .catch((e: unknown) => this.warn(sessionId, e));
  }

  @SubscribeMessage('terminal.answer')
  terminalAnswer(@ConnectedSocket() client: WebSocket, @MessageBody() data: DaemonAnswer): void {
    const sessionId = this.sockets.sessionOf(client);
    if (sessionId && typeof data?.requestId === 'string') this.channel.answer(sessionId, data);
  }

  private warn(sessionId: string, e: unknown): void {
    this.logger.warn(`box ${sessionId}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
