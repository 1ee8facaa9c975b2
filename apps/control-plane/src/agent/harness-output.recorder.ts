import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type HarnessOutput } from '@sessionboxer/domain';
import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters';
import { CredentialsService } from '../settings';
import { ConversationsService } from './conversations.service';
import { OutputBatches } from './output-batches';
import { TurnDispatcher } from './turn-dispatcher';

/** What `agent.ack` tells the daemon: that frame is recorded, don't send it again. */
export interface AgentAck {
  conversationId: string;
  turn: number;
  fromIndex: number;
}

/**
 * Records what a box's harness reported (`agent.output` frames) into its conversation: only
 * for a conversation of the socket's own session and its running turn (the decider refuses any
 * other turn, saying which one runs), in order per conversation, once per (turn, index)
 * whatever the resends, and with every credential's value masked first.
 */
@Injectable()
export class HarnessOutputRecorder {
  private readonly batches = new OutputBatches((sessionId, frame) => this.apply(sessionId, frame));

  constructor(
    private readonly conversations: ConversationsService,
    private readonly credentials: CredentialsService,
    private readonly dispatcher: TurnDispatcher,
  ) {}

  /**
   * Resolves with the acknowledgement to send back once the frame is recorded; rejects with
   * why it was not (a refusal for good, or a failure the daemon's resend may get past).
   */
  async record(sessionId: string, frame: AgentOutputFrame): Promise<AgentAck> {
    const { conversationId, turn, fromIndex } = frame;
    await this.batches.add(sessionId, frame);
    return { conversationId, turn, fromIndex };
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
    if (replayed || !events.some((e) => e.type === 'TurnFinished')) return;
    // The next turn is decided from the read model, which must show this end first. What the
    // end means elsewhere (Auto QA) is a reactor's business, over the TurnFinished event.
    if (position !== null) await this.conversations.waitFor(position);
    await this.dispatcher.ended(sessionId, conversationId);
  }
}
