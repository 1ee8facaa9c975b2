import { Logger } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain';
import {
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
} from '@nestjs/websockets';
import {
  agentOutputFrame,
  helloFrame,
  terminalExitedFrame,
  terminalOpenedFrame,
  terminalOutputFrame,
  type CallResult,
} from '@sessionboxer/mcp-adapters';
import type { WebSocket } from 'ws';
import { HarnessOutputRecorder, type AgentAck } from '../agent';
import { TurnDispatcher } from '../agent';
import { SessionFileSync } from '../sessions';
import { BoxLifecycle } from '../boxes';
import { BOX_GATEWAY_PATH, BoxSockets } from '../boxes';
import { McpRegistrySync } from '../mcp-registry';
import { CallService } from './call.service';
import { DaemonChannel, daemonAnswer, Terminals } from '../boxes';
import {
  DAEMON_FRAMES as F,
  invalid,
  refOf,
  refusalOf,
  refused,
  type Refusal,
} from './daemon-frames';

const OUTPUT_REF = ['conversationId', 'turn', 'fromIndex'] as const;
const TERMINAL_REF = ['terminalId'] as const;

/**
 * The gateway box daemons connect to, one socket per box. Thin: every frame is bound to the
 * session of the socket it came on, validated, and handed to one service; a frame that is not
 * taken is answered `error` with why (a call by its `result`), and records nothing.
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
    private readonly files: SessionFileSync,
    private readonly terminals: Terminals,
    private readonly registry: McpRegistrySync,
  ) {}

  handleConnection(client: WebSocket): void {
    const sessionId = this.sockets.sessionOf(client);
    if (!sessionId) {
      client.close(1008, 'not a box socket');
      return;
    }
    // The registry at once, so it precedes any turn.start on this connection; then ready, then
    // the daemon's session.json (it shows the box's status).
    this.registry.push(sessionId);
    void this.boxes
      .daemonConnected(sessionId)
      .then(() => this.files.push(sessionId))
      .catch((e: unknown) => this.warn(sessionId, e));
  }

  handleDisconnect(client: WebSocket): void {
    const sessionId = this.sockets.sessionOf(client);
    const wasCurrent = sessionId !== undefined && this.sockets.clientOf(sessionId) === client;
    this.sockets.release(client);
    if (sessionId && wasCurrent) {
      void this.boxes.daemonDisconnected(sessionId).catch((e: unknown) => this.warn(sessionId, e));
    }
  }

  @SubscribeMessage(F.call)
  async call(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<{ event: 'result'; data: CallResult }> {
    const sessionId = this.sockets.sessionOf(client) as string;
    return { event: 'result', data: await this.calls.handle(sessionId, data) };
  }

  /** The turns whose harness the daemon still runs: the dispatcher fails any other running one. */
  @SubscribeMessage(F.hello)
  async hello(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<Refusal | undefined> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const frame = helloFrame.safeParse(data);
    if (!frame.success) return invalid(F.hello, frame.error);
    return this.turns.hello(sessionId, frame.data.turns).then(
      () => undefined,
      (e: unknown) => this.refuse(sessionId, F.hello, e),
    );
  }

  /** A harness's outputs; acknowledged once recorded, so the daemon stops resending them. */
  @SubscribeMessage(F.agentOutput)
  async agentOutput(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<{ event: 'agent.ack'; data: AgentAck } | Refusal | undefined> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const ref = refOf(data, OUTPUT_REF);
    const frame = agentOutputFrame.safeParse(data);
    if (!frame.success) return invalid(F.agentOutput, frame.error, ref);
    return this.outputs.record(sessionId, frame.data).then(
      (ack) => ({ event: 'agent.ack' as const, data: ack }),
      (e: unknown) => this.refuse(sessionId, F.agentOutput, e, ref),
    );
  }

  /** Taken only for a Terminal the control plane asked this box to open. */
  @SubscribeMessage(F.terminalOpened)
  async terminalOpened(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<Refusal | undefined> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const ref = refOf(data, TERMINAL_REF);
    const frame = terminalOpenedFrame.safeParse(data);
    if (!frame.success) return invalid(F.terminalOpened, frame.error, ref);
    return this.boxes.terminalOpened(sessionId, frame.data).then(
      () => undefined,
      (e: unknown) => this.refuse(sessionId, F.terminalOpened, e, ref),
    );
  }

  /** Taken only for a Terminal of the session (so one the control plane asked for). */
  @SubscribeMessage(F.terminalExited)
  async terminalExited(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<Refusal | undefined> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const ref = refOf(data, TERMINAL_REF);
    const frame = terminalExitedFrame.safeParse(data);
    if (!frame.success) return invalid(F.terminalExited, frame.error, ref);
    return this.boxes.terminalExited(sessionId, frame.data).then(
      () => undefined,
      (e: unknown) => this.refuse(sessionId, F.terminalExited, e, ref),
    );
  }

  /** A batch of a Terminal's output; taken only for a Terminal of the session. */
  @SubscribeMessage(F.terminalOutput)
  async terminalOutput(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Promise<Refusal | undefined> {
    const sessionId = this.sockets.sessionOf(client) as string;
    const ref = refOf(data, [...TERMINAL_REF, 'offset']);
    const frame = terminalOutputFrame.safeParse(data);
    if (!frame.success) return invalid(F.terminalOutput, frame.error, ref);
    return this.terminals.recordOutput(sessionId, frame.data).then(
      () => undefined,
      (e: unknown) => this.refuse(sessionId, F.terminalOutput, e, ref),
    );
  }

  /** Taken only as the answer to a request that went out on this very connection and waits. */
  @SubscribeMessage(F.terminalAnswer)
  terminalAnswer(
    @ConnectedSocket() client: WebSocket,
    @MessageBody() data: unknown,
  ): Refusal | undefined {
    const ref = refOf(data, ['requestId']);
    const answer = daemonAnswer.safeParse(data);
    if (!answer.success) return invalid(F.terminalAnswer, answer.error, ref);
    if (this.channel.answer(client, answer.data)) return undefined;
    return refused(
      F.terminalAnswer,
      ErrorCode.NotFound,
      `no request ${answer.data.requestId} waits for an answer on this connection (answered, timed out, or never asked)`,
      ref,
    );
  }

  private refuse(
    sessionId: string,
    frame: string,
    e: unknown,
    ref?: Record<string, unknown>,
  ): Refusal | undefined {
    const refusal = refusalOf(frame, e, this.logger, ref);
    if (refusal) this.logger.warn(`box ${sessionId}: refused ${frame}: ${refusal.data.message}`);
    else this.warn(sessionId, e);
    return refusal;
  }

  private warn(sessionId: string, e: unknown): void {
    this.logger.warn(`box ${sessionId}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
