import type { Actor, VerificationCommand } from '@sessionboxer/domain';
import type { E2eCase, E2eCaseResult, E2ePort, E2eRun } from '@sessionboxer/mcp-adapters';
import type { VerificationRunDoc } from '@sessionboxer/projections';
import { CommandBus } from '../infrastructure/command-bus';
import { runView, Verifications } from './verifications.service';

type RunCommand<T extends VerificationCommand['type']> = Omit<
  Extract<VerificationCommand, { type: T }>['data'],
  'runId'
>;

/**
 * E2ePort for ONE call of ONE session's agent: every tool acts on the session's open run (the
 * session comes from the box's socket, never from the arguments), and its command id is
 * derived from the call id, so a call resent after a reconnect or restart applies once.
 */
export class ControlPlaneE2ePort implements E2ePort {
  private readonly actor: Actor;

  constructor(
    private readonly verifications: Verifications,
    private readonly bus: CommandBus,
    private readonly sessionId: string,
    private readonly callId: string,
  ) {
    this.actor = { kind: 'agent', sessionId };
  }

  async plan(cases: string[]): Promise<E2eRun> {
    return runView(await this.run('PlanCases', { cases }));
  }

  async skip(reason: string): Promise<E2eRun> {
    return runView(await this.run('SkipRun', { reason }));
  }

  async startCase(index: number): Promise<E2eCase> {
    return caseOf(await this.run('StartCase', { index }), index);
  }

  async endCase(index: number, result: E2eCaseResult): Promise<E2eCase> {
    const { status, note, screenshot } = result;
    const optional = {
      ...(note === null ? {} : { note }),
      ...(screenshot === null ? {} : { screenshot }),
    };
    return caseOf(await this.run('EndCase', { index, status, ...optional }), index);
  }

  async finish(result: { video: string | null; summary: string | null }): Promise<E2eRun> {
    const { video, summary } = result;
    const optional = {
      ...(video === null ? {} : { video }),
      ...(summary === null ? {} : { summary }),
    };
    return runView(await this.run('FinishRun', optional));
  }

  private run<T extends VerificationCommand['type']>(
    type: T,
    data: RunCommand<T>,
  ): Promise<VerificationRunDoc> {
    const metadata = this.bus.metadata(this.actor, `call/${this.callId}`);
    return this.verifications.onOpenRun(
      this.sessionId,
      (runId) => ({ type, data: { ...data, runId }, metadata }) as VerificationCommand,
    );
  }
}

function caseOf(run: VerificationRunDoc, index: number): E2eCase {
  // The decider refused an index the run does not have, so the case is there.
  return run.cases[index - 1];
}
