import { Injectable, Logger } from '@nestjs/common';
import {
  DomainError,
  ErrorCode,
  isDomainError,
  type HarnessOutput,
  type TurnFinished,
} from '@sessionboxer/domain';
import { agentOutputFrame, type AgentOutputFrame } from '@sessionboxer/mcp-adapters';

export interface AgentAck {
  conversationId: string;
  turn: number;
  fromIndex: number;
}
import { CredentialsService } from '../credentials/credentials.service';
import { AutoQa } from '../verification/auto-qa';
import { ConversationsService } from './conversations.service';
import { OutputBatches } from './output-batches';
import { TurnDispatcher } from './turn-dispatcher';

/**
 * Records what a box's harness reported (`agent.output` frames) into its conversation: only
 * for a conversation of the socket's own session, in order per conversation, once per
 * (turn, index) whatever the resends, and with every credential's value masked first.
 */
@Injectable()
export class HarnessOutputRecorder {
  private readonly logger = new Logger('HarnessOutput');
  private readonly batches = new OutputBatches((sessionId, frame) => this.apply(sessionId, frame));

  constructor(
    private readonly conversations: ConversationsService,
    private readonly credentials: CredentialsService,
    private readonly dispatcher: TurnDispatcher,
    private readonly autoQa: AutoQa,
  ) {}

  /**
   * Resolves with the acknowledgement to send back once the frame is recorded, or refused for
   * good (it would be refused again); rejects when it could not be recorded now (the daemon
   * sends it again on its next connection).
   */
  record(sessionId: string, raw: unknown): Promise<AgentAck | null> {
    const frame = agentOutputFrame.safeParse(raw);
    if (!frame.success) {
      this.logger.warn(`box ${sessionId} sent a malformed agent.output frame; dropped`);
      return Promise.resolve(null);
    }
    const { conversationId, turn, fromIndex } = frame.data;
    const ack = { conversationId, turn, fromIndex };
    return this.batches.add(sessionId, frame.data).then(
      () => ack,
      (e: unknown) => {
        const retry =
          !isDomainError(e) || e.code === ErrorCode.Conflict || e.code === ErrorCode.Unavailable;
        if (retry) throw e;
        this.logger.warn(`box ${sessionId}: agent output refused: ${e.message}`);
        return ack;
      },
    );
  }

  private async apply(sessionId: string, frame: AgentOutputFrame): Promise<void> {
    const { conversationId, turn, fromIndex } = frame;
    const doc = this.conversations.conversation(conversationId);
    if (doc?.sessionId !== sessionId) {
      throw new DomainError(
        ErrorCode.Forbidden,
        `conversation ${conversationId} is not this box's session's`,
      );
    }
    const outputs = this.credentials.mask(frame.outputs) as unknown as HarnessOutput[];
    const change = await this.conversations.execute(
      conversationId,
      {
        type: 'RecordHarnessOutput',
        data: { conversationId, turn, fromIndex, outputs },
        metadata: this.conversations.metadata(
          { kind: 'agent', sessionId },
          `output/${conversationId}/${turn}/${fromIndex}`,
        ),
      },
      { wait: false },
    );
    const { replayed, events, position } = change.result;
    const finished = events.find((e) => e.type === 'TurnFinished');
    if (replayed || finished === undefined) return;
    // The next turn is decided from the read model, which must show this end first.
    if (position !== null) await this.conversations.waitFor(position);
    await this.dispatcher.ended(sessionId, conversationId);
    // After the queue moved on: Auto QA's prompt joins the queue behind the person's.
    await this.autoQa.turnFinished(
      sessionId,
      conversationId,
      finished.data as TurnFinished['data'],
    );
  }
}
