import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  conversationStream,
  type Actor,
  type TurnFinished,
  type TurnStarted,
} from '@sessionboxer/domain';
import { deterministicUuid, type EventStore, type RecordedEvent } from '@sessionboxer/event-store';
import {
  conversationQueries,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { SessionAgent } from '../agent';
import { Reactors } from '../infrastructure/reactors';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { SettingsService } from '../settings';
import { Verifications } from './verifications.service';

/** Who opens Auto QA's runs and sends its prompts. */
export const AUTO_QA: Actor = { kind: 'system', id: 'auto-qa' };
const PAGE = 200;
const QUOTE_MAX = 500;

/** The run's brief: what to verify, quoting the person's request. */
export function autoQaBrief(turn: number, request: string): string {
  const chars = [...request.replace(/[\s\p{Cc}]+/gu, ' ').trim()];
  const quote =
    chars.length <= QUOTE_MAX ? chars.join('') : `${chars.slice(0, QUOTE_MAX - 1).join('')}…`;
  return `Verify end to end what turn ${turn} changed, as the person asked: “${quote}”`;
}

/** The prompt that asks the agent to fill the run in (the e2e-verification skill). */
export function autoQaPrompt(runId: string, brief: string): string {
  return [
    `Sessionboxer's Auto QA opened verification run ${runId} for your last turn. Its brief: ${brief}`,
    'Follow the e2e-verification skill: call e2e_plan with the test cases (or with skip and the reason when the turn changed nothing testable: an answer-only turn, research); start_recording; for each case e2e_case_start, test it on the desktop, then e2e_case_end with passed or failed, a note and a screenshot saved under /workspace (a failed case: fix the cause and start it again); then stop_recording and e2e_finish with the video path.',
    "Do not call verify: this run is open already. End your reply with a short summary that mentions the video's path.",
  ].join('\n\n');
}

/**
 * The Auto QA setting (`autoQa.afterEachTurn`): after each turn a PERSON sent finishes, open a
 * verification run and queue a prompt asking the agent to verify it. Turns Sessionboxer or the
 * agent itself queued (this prompt, queue_add) open none, so it never verifies its own check.
 * A reactor over TurnFinished: the run's id and the prompt's key come from the turn, so a
 * repeated reaction opens one run and queues one prompt; the setting is read when it reacts.
 */
@Injectable()
export class AutoQa implements Reactor, OnModuleInit {
  readonly name = 'auto_qa_after_turn';
  readonly handles = ['TurnFinished'];
  private readonly logger = new Logger('AutoQa');

  constructor(
    private readonly reactors: Reactors,
    private readonly settings: SettingsService,
    private readonly verifications: Verifications,
    private readonly agent: SessionAgent,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
  }

  /** A turn finished; only a session's own conversation has an Auto QA. */
  async react(event: RecordedEvent): Promise<void> {
    const finished = event.data as TurnFinished['data'];
    if (finished.status !== 'finished') return;
    const sessionId = conversationQueries(this.readModels).get(finished.conversationId)?.sessionId;
    if (sessionId == null) return;
    await this.afterTurn(sessionId, finished.conversationId, finished);
  }

  private async afterTurn(
    sessionId: string,
    conversationId: string,
    finished: TurnFinished['data'],
  ) {
    if (!(await this.settings.current()).autoQa.afterEachTurn) return;
    const prompt = await this.promptOf(conversationId, finished.turn);
    if (prompt?.from.kind !== 'person') return;
    const key = `auto-qa/${conversationId}/${finished.turn}`;
    const runId = deterministicUuid(`verification/${sessionId}/${key}`);
    // Its own run open already: a repeated reaction, which still owes the prompt.
    const open = await this.verifications.openRunId(sessionId);
    if (open !== null && open !== runId) {
      this.logger.log(
        `session ${sessionId}: a verification run is still open; no new one after turn ${finished.turn}`,
      );
      return;
    }
    const brief = autoQaBrief(finished.turn, prompt.text);
    await this.verifications.open({ sessionId, runId, brief, cases: null, actor: AUTO_QA, key });
    const text = autoQaPrompt(runId, brief);
    await this.agent.prompt(sessionId, { text, from: AUTO_QA, key, queue: true });
  }

  /** The turn's prompt, read back from the end of the conversation's stream. */
  private async promptOf(
    conversationId: string,
    turn: number,
  ): Promise<TurnStarted['data'] | null> {
    const stream = conversationStream(conversationId);
    let from: number | 'end' = 'end';
    for (;;) {
      const page = await this.store.readStream(stream, {
        direction: 'backwards',
        fromRevision: from,
        maxCount: PAGE,
      });
      for (const event of page) {
        if (event.type !== 'TurnStarted') continue;
        const data = event.data as TurnStarted['data'];
        if (data.turn <= turn) return data.turn === turn ? data : null;
      }
      const last = page.at(-1);
      if (page.length < PAGE || last === undefined || last.revision === 0) return null;
      from = last.revision - 1;
    }
  }
}
