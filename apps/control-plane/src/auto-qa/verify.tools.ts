import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { VerificationCommand } from '@sessionboxer/domain';
import {
  e2eCaseEndTool,
  e2eCaseStartTool,
  e2eFinishTool,
  e2ePlanTool,
  verifyTool,
  type CallContext,
  type E2eCase,
  type VerifyResult,
} from '@sessionboxer/mcp-adapters';
import type { VerificationRunDoc } from '@sessionboxer/projections';
import { CallHandlers } from '../calls';
import { CommandBus } from '../infrastructure/command-bus';
import { runView, Verifications } from './verifications.service';

type RunCommand<T extends VerificationCommand['type']> = Omit<
  Extract<VerificationCommand, { type: T }>['data'],
  'runId'
>;

/** Only the fields that were given: the run's commands take absent, not null. */
const given = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

/**
 * Auto QA: `verify` opens a run; the `e2e_*` tools act on the calling session's open run (the
 * session from its box's socket, never from the arguments), each with one command whose id
 * derives from the call id, so a call resent after a reconnect or restart applies once.
 */
@Injectable()
export class VerifyTools implements OnModuleInit {
  constructor(
    private readonly handlers: CallHandlers,
    private readonly verifications: Verifications,
    private readonly bus: CommandBus,
  ) {}

  onModuleInit(): void {
    const owner = 'auto-qa';
    this.handlers.sessionboxer.register(verifyTool, (a, ctx) => this.verify(a, ctx), owner);
    const e2e = this.handlers.e2e;
    e2e.register(
      e2ePlanTool,
      async ({ cases, skip }, ctx) =>
        runView(
          cases !== undefined
            ? await this.run(ctx, 'PlanCases', { cases })
            : await this.run(ctx, 'SkipRun', { reason: skip ?? '' }),
        ),
      owner,
    );
    e2e.register(
      e2eCaseStartTool,
      async ({ index }, ctx) => caseOf(await this.run(ctx, 'StartCase', { index }), index),
      owner,
    );
    e2e.register(
      e2eCaseEndTool,
      async ({ index, status, note, screenshot }, ctx) => {
        const data = { index, status, ...given({ note, screenshot }) };
        return caseOf(await this.run(ctx, 'EndCase', data), index);
      },
      owner,
    );
    e2e.register(
      e2eFinishTool,
      async ({ video, summary }, ctx) =>
        runView(await this.run(ctx, 'FinishRun', given({ video, summary }))),
      owner,
    );
  }

  private async verify(
    { brief, cases }: { brief: string; cases?: string[] },
    ctx: CallContext,
  ): Promise<VerifyResult> {
    const run = await this.verifications.open({
      sessionId: ctx.sessionId,
      runId: ctx.idFor('verification'),
      brief,
      cases: cases ?? null,
      actor: ctx.actor,
      key: ctx.key,
    });
    const summary = run.cases.map(({ index, title, status }) => ({ index, title, status }));
    return { id: run.id, status: run.status, cases: summary };
  }

  private run<T extends VerificationCommand['type']>(
    ctx: CallContext,
    type: T,
    data: RunCommand<T>,
  ): Promise<VerificationRunDoc> {
    const metadata = this.bus.metadata(ctx.actor, ctx.key);
    return this.verifications.onOpenRun(
      ctx.sessionId,
      (runId) => ({ type, data: { ...data, runId }, metadata }) as VerificationCommand,
    );
  }
}

function caseOf(run: VerificationRunDoc, index: number): E2eCase {
  // The decider refused an index the run does not have, so the case is there.
  return run.cases[index - 1];
}
