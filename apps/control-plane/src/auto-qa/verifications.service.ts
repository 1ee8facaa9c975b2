import { Inject, Injectable } from '@nestjs/common';
import {
  currentRunDecider,
  DomainError,
  ErrorCode,
  fold,
  sessionVerificationsStream,
  verificationDecider,
  verificationStream,
  type Actor,
  type CurrentVerificationRunSet,
  type VerificationCommand,
  type VerificationEvent,
  type VerificationState,
} from '@sessionboxer/domain';
import type { EventStore } from '@sessionboxer/event-store';
import type { E2eRun } from '@sessionboxer/mcp-adapters';
import {
  sidebarQueries,
  verificationQueries,
  type SqliteReadModelStore,
  type VerificationRunDoc,
} from '@sessionboxer/projections';
import { CommandBus } from '../infrastructure/command-bus';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';

export interface OpenRunInput {
  sessionId: string;
  runId: string;
  brief: string;
  cases: string[] | null;
  actor: Actor;
  /** What the command ids derive from (a box's callId, a finished turn), so a retry opens once. */
  key: string;
}

/** A run's state folded from its own stream, and which commands it has taken. */
interface RunRead {
  state: VerificationState;
  commandIds: Set<string>;
}

const CLOSED = ['passed', 'failed', 'skipped'];

/** The run as the e2e tools return it: the read model's document without its bookkeeping. */
export function runView(doc: VerificationRunDoc): E2eRun {
  const { sessionId: _s, openedBy: _o, position: _p, ...run } = doc;
  return run;
}

/**
 * A session's Auto QA runs. Which run is open is decided on the write side: the session's
 * `verifications-<id>` stream says which run is current (see libs/domain's current-run.ts),
 * the run's own stream whether it is still open.
 */
@Injectable()
export class Verifications {
  constructor(
    private readonly bus: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  /** Opens a run and makes it the session's current one; refused while another is open. */
  async open(input: OpenRunInput): Promise<VerificationRunDoc> {
    const { sessionId, runId, actor, key } = input;
    if (!sidebarQueries(this.readModels).get(sessionId)) {
      throw new DomainError(ErrorCode.NotFound, `session ${sessionId} does not exist`);
    }
    const current = await this.currentRunId(sessionId);
    if (current !== null && current !== runId) await this.refuseWhileOpen(current);
    await this.bus.execute(currentRunDecider, sessionVerificationsStream(sessionId), {
      type: 'SetCurrentVerificationRun',
      data: { sessionId, runId, replacing: current },
      metadata: this.bus.metadata(actor, `${key}/current`),
    });
    const cases = input.cases === null ? {} : { cases: input.cases };
    await this.bus.execute(verificationDecider, verificationStream(runId), {
      type: 'OpenVerification',
      data: { runId, sessionId, brief: input.brief, ...cases },
      metadata: this.bus.metadata(actor, `${key}/open`),
    });
    return this.doc(runId);
  }

  /**
   * Runs one command on the session's open run and returns the run as it is then. A command
   * this run already took (a call resent after it closed the run) answers as the first time.
   */
  async onOpenRun(
    sessionId: string,
    command: (runId: string) => VerificationCommand,
  ): Promise<VerificationRunDoc> {
    const runId = await this.currentRunId(sessionId);
    if (runId === null) throw new DomainError(ErrorCode.InvalidState, noOpenRun(null));
    const cmd = command(runId);
    const { state, commandIds } = await this.readRun(runId);
    const open = state.status !== 'absent' && !isClosed(state);
    if (!open && !commandIds.has(cmd.metadata.commandId)) {
      throw new DomainError(ErrorCode.InvalidState, noOpenRun(state));
    }
    await this.bus.execute(verificationDecider, verificationStream(runId), cmd);
    return this.doc(runId);
  }

  /** Every run of the session, oldest first. */
  list(sessionId: string): VerificationRunDoc[] {
    return verificationQueries(this.readModels).list(sessionId);
  }

  /** The session's current run if it is open, from the write side (Auto QA asks this). */
  async openRunId(sessionId: string): Promise<string | null> {
    const current = await this.currentRunId(sessionId);
    if (current === null) return null;
    const { state } = await this.readRun(current);
    return state.status !== 'absent' && !isClosed(state) ? current : null;
  }

  private async currentRunId(sessionId: string): Promise<string | null> {
    const events = await this.store.readStream(sessionVerificationsStream(sessionId));
    return fold(currentRunDecider, events as unknown as CurrentVerificationRunSet[]).current;
  }

  private async readRun(runId: string): Promise<RunRead> {
    const events = await this.store.readStream(verificationStream(runId));
    return {
      state: fold(verificationDecider, events as unknown as VerificationEvent[]),
      commandIds: new Set(events.map((e) => e.metadata.commandId)),
    };
  }

  /** A current run that was never opened (a crash between the two writes) counts as closed. */
  private async refuseWhileOpen(runId: string): Promise<void> {
    const { state } = await this.readRun(runId);
    if (state.status === 'absent' || isClosed(state)) return;
    const brief = verificationQueries(this.readModels).get(runId)?.brief;
    const what = brief === undefined ? '' : ` (“${brief}”)`;
    throw new DomainError(
      ErrorCode.InvalidState,
      `verification run ${runId}${what} is still open: a session has one open run at a time, so finish it with e2e_finish (or skip it with e2e_plan) before opening another`,
      { runId },
    );
  }

  private doc(runId: string): VerificationRunDoc {
    const doc = verificationQueries(this.readModels).get(runId);
    if (!doc) throw new DomainError(ErrorCode.NotFound, `verification run ${runId} does not exist`);
    return doc;
  }
}

function isClosed(state: VerificationState): boolean {
  return CLOSED.includes(state.status);
}

function noOpenRun(last: VerificationState | null): string {
  const closed =
    last !== null && last.status !== 'absent'
      ? ` (its last run, ${last.runId}, is closed: ${last.status})`
      : '';
  return `this session has no open verification run${closed}: open one with verify, or wait for Sessionboxer's Auto QA to ask you to verify a turn`;
}
