import { assertNever, DomainError, ErrorCode, type Decider } from '../kernel';
import { exactId } from '../kernel/validation';
import type {
  EndCase,
  FinishRun,
  OpenVerification,
  PlanCases,
  SkipRun,
  StartCase,
  VerificationCommand,
} from './verification.commands';
import type { FinalCaseStatus, VerificationEvent } from './verification.events';
import {
  caseOf,
  initialVerificationState,
  openRun,
  plannedRun,
  runningCase,
  type CaseState,
  type VerificationState,
} from './verification.state';
import {
  BRIEF_MAX,
  NOTE_MAX,
  optionalParagraph,
  paragraph,
  SKIP_REASON_MAX,
  SUMMARY_MAX,
  validCases,
  validIndex,
  validRunId,
  workspaceFile,
} from './verification.validation';

/** One Auto QA run's stream, `verification-<runId>` (the category-id form of streamName). */
export function verificationStream(runId: string): string {
  return `verification-${validRunId(runId)}`;
}

function open(command: OpenVerification, state: VerificationState): VerificationEvent[] {
  const { data, metadata } = command;
  const runId = validRunId(data.runId);
  const sessionId = exactId(data.sessionId, 'sessionId');
  const brief = paragraph(data.brief, 'brief', BRIEF_MAX);
  const cases = data.cases === undefined ? null : validCases(data.cases);
  if (state.status !== 'absent') {
    throw new DomainError(
      ErrorCode.AlreadyExists,
      `verification run ${runId} already exists; a new run needs a new id`,
      { runId },
    );
  }
  const at = metadata.at;
  const opened: VerificationEvent = {
    type: 'VerificationOpened',
    data: { runId, sessionId, brief, at },
  };
  if (cases === null) return [opened];
  return [opened, { type: 'VerificationCasesPlanned', data: { runId, sessionId, cases, at } }];
}

function plan(command: PlanCases, state: VerificationState): VerificationEvent[] {
  const run = openRun(state, validRunId(command.data.runId));
  const cases = validCases(command.data.cases);
  if (run.status !== 'open') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `the ${run.cases.length} cases of verification run ${run.runId} are already planned: e2e_plan is called once per run; start them with e2e_case_start`,
      { runId: run.runId },
    );
  }
  const { runId, sessionId } = run;
  const data = { runId, sessionId, cases, at: command.metadata.at };
  return [{ type: 'VerificationCasesPlanned', data }];
}

function skip(command: SkipRun, state: VerificationState): VerificationEvent[] {
  const run = openRun(state, validRunId(command.data.runId));
  const reason = paragraph(command.data.reason, 'reason', SKIP_REASON_MAX);
  if (run.status !== 'open') {
    throw new DomainError(
      ErrorCode.InvalidState,
      `verification run ${run.runId} has its cases planned: test them and close the run with e2e_finish (a run is skipped instead of planning it)`,
      { runId: run.runId },
    );
  }
  const { runId, sessionId } = run;
  return [
    { type: 'VerificationSkipped', data: { runId, sessionId, reason, at: command.metadata.at } },
  ];
}

function describeCase(c: CaseState): string {
  return `case ${c.index} (“${c.title}”)`;
}

function start(command: StartCase, state: VerificationState): VerificationEvent[] {
  const run = plannedRun(state, validRunId(command.data.runId));
  const target = caseOf(run, validIndex(command.data.index));
  const running = runningCase(run);
  if (running !== undefined) {
    const why =
      running === target
        ? `${describeCase(target)} is already running (attempt ${target.attempts})`
        : `${describeCase(running)} is still running`;
    throw new DomainError(
      ErrorCode.InvalidState,
      `${why}; end it with e2e_case_end before starting case ${target.index}`,
      { runId: run.runId, index: running.index },
    );
  }
  const { runId, sessionId } = run;
  const data = { runId, sessionId, index: target.index, attempt: target.attempts + 1 };
  return [{ type: 'VerificationCaseStarted', data: { ...data, at: command.metadata.at } }];
}

function end(command: EndCase, state: VerificationState): VerificationEvent[] {
  const { data, metadata } = command;
  const run = plannedRun(state, validRunId(data.runId));
  const target = caseOf(run, validIndex(data.index));
  const result = {
    status: resultOf(data.status),
    note: optionalParagraph(data.note, 'note', NOTE_MAX),
    screenshot: workspaceFile(data.screenshot, 'screenshot'),
  };
  if (target.last !== 'running') {
    const last =
      target.last === null
        ? 'it was never started'
        : `its attempt ${target.attempts} ended ${target.last}`;
    throw new DomainError(
      ErrorCode.InvalidState,
      `${describeCase(target)} is not running (${last}); start it with e2e_case_start first`,
      { runId: run.runId, index: target.index },
    );
  }
  const { runId, sessionId } = run;
  const ids = { runId, sessionId, index: target.index, attempt: target.attempts };
  return [{ type: 'VerificationCaseEnded', data: { ...ids, ...result, at: metadata.at } }];
}

function resultOf(value: unknown): 'passed' | 'failed' {
  if (value === 'passed' || value === 'failed') return value;
  throw new DomainError(
    ErrorCode.ValidationFailed,
    `status must be passed or failed (got ${JSON.stringify(value)})`,
    { field: 'status' },
  );
}

function finish(command: FinishRun, state: VerificationState): VerificationEvent[] {
  const { data, metadata } = command;
  const run = plannedRun(state, validRunId(data.runId));
  const video = workspaceFile(data.video, 'video');
  const summary = optionalParagraph(data.summary, 'summary', SUMMARY_MAX);
  const running = runningCase(run);
  if (running !== undefined) {
    throw new DomainError(
      ErrorCode.InvalidState,
      `${describeCase(running)} is still running; end it with e2e_case_end before e2e_finish`,
      { runId: run.runId, index: running.index },
    );
  }
  // Never started: skipped. Otherwise the last attempt counts, so a case fixed and passed
  // on its second attempt passes.
  const cases = run.cases.map((c) => ({
    index: c.index,
    status: (c.last ?? 'skipped') as FinalCaseStatus,
  }));
  const verdict = cases.some((c) => c.status === 'failed') ? 'failed' : 'passed';
  const { runId, sessionId } = run;
  const event = { runId, sessionId, verdict, cases, video, summary, at: metadata.at } as const;
  return [{ type: 'VerificationFinished', data: event }];
}

function decide(command: VerificationCommand, state: VerificationState): VerificationEvent[] {
  switch (command.type) {
    case 'OpenVerification':
      return open(command, state);
    case 'PlanCases':
      return plan(command, state);
    case 'SkipRun':
      return skip(command, state);
    case 'StartCase':
      return start(command, state);
    case 'EndCase':
      return end(command, state);
    case 'FinishRun':
      return finish(command, state);
    default:
      return assertNever(command);
  }
}

function withCase(cases: readonly CaseState[], index: number, change: Partial<CaseState>) {
  return cases.map((c) => (c.index === index ? { ...c, ...change } : c));
}

/** Events are facts: evolve never refuses one, it only folds what it knows into the state. */
function evolve(state: VerificationState, event: VerificationEvent): VerificationState {
  if (event.type === 'VerificationOpened') {
    const { runId, sessionId } = event.data;
    return { status: 'open', runId, sessionId, cases: [] };
  }
  if (state.status === 'absent') return state;
  switch (event.type) {
    case 'VerificationCasesPlanned': {
      const cases = event.data.cases.map((c) => ({ ...c, attempts: 0, last: null }));
      return { ...state, status: 'running', cases };
    }
    case 'VerificationSkipped':
      return { ...state, status: 'skipped' };
    case 'VerificationCaseStarted': {
      const { index, attempt } = event.data;
      return {
        ...state,
        cases: withCase(state.cases, index, { attempts: attempt, last: 'running' }),
      };
    }
    case 'VerificationCaseEnded':
      return {
        ...state,
        cases: withCase(state.cases, event.data.index, { last: event.data.status }),
      };
    case 'VerificationFinished':
      return { ...state, status: event.data.verdict };
    default:
      return assertNever(event);
  }
}

export const verificationDecider: Decider<
  VerificationCommand,
  VerificationEvent,
  VerificationState
> = { decide, evolve, initialState: initialVerificationState };
