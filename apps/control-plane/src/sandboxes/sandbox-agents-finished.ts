import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { RecordedEvent } from '@sessionboxer/event-store';
import {
  conversationQueries,
  type Reactor,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { sandboxQueries } from '@sessionboxer/projections/sandboxes.projection';
import { Clock } from '../infrastructure/clock';
import { Reactors } from '../infrastructure/reactors';
import { READ_MODELS } from '../infrastructure/tokens';
import { JOBS, type JobFire, type JobsPort } from '../jobs';
import { sandboxConversations } from './sandbox-conversations';
import { SandboxTurns } from './sandbox-turns';
import { SandboxUse } from './sandbox-use';
import { Sandboxes } from './sandboxes.service';

export const AGENTS_FINISHED_PREFIX = 'sandbox-agents-finished-';
/** How long nothing may use the sandbox after its agents finished, before it stops. */
export const AGENTS_FINISHED_UNUSED_MS = 2 * 60 * 1000;

/**
 * stop_when_agents_finish, as a reaction: when a sandbox's turn finishes (or the setting is
 * turned on, or the sandbox resumes) a one-shot `sandbox-agents-finished-<id>` is due once the
 * sandbox would have gone 2 minutes unused. When it fires and a turn has finished, none runs
 * or waits, and nothing used the sandbox for 2 minutes, the sandbox stops with stopped_reason
 * agents_finished; used meanwhile, the job is scheduled again. A resume also starts the
 * prompts that waited while it was stopped. Time is the control plane's Clock.
 */
@Injectable()
export class SandboxAgentsFinished implements Reactor, OnModuleInit {
  readonly name = 'sandbox_agents_finished';
  readonly handles = ['TurnFinished', 'SandboxUpdated', 'SandboxResumed'];
  private readonly logger = new Logger('SandboxAgentsFinished');

  constructor(
    private readonly reactors: Reactors,
    @Inject(JOBS) private readonly jobs: JobsPort,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly use: SandboxUse,
    private readonly clock: Clock,
    private readonly turns: SandboxTurns,
    private readonly sandboxes: Sandboxes,
  ) {}

  onModuleInit(): void {
    this.reactors.register(this);
    this.jobs.onFire((fire) => this.fired(fire));
  }

  async react(event: RecordedEvent): Promise<void> {
    const data = event.data as { sandboxId?: string; conversationId?: string };
    const sandboxId =
      event.type === 'TurnFinished'
        ? this.ownerOf(data.conversationId ?? '')
        : (data.sandboxId ?? null);
    if (sandboxId === null) return;
    if (event.type === 'SandboxResumed') {
      for (const c of sandboxConversations(this.readModels, sandboxId)) {
        await this.turns.next(sandboxId, c.id);
      }
    }
    await this.arm(sandboxId);
  }

  private ownerOf(conversationId: string): string | null {
    const owner = conversationQueries(this.readModels).get(conversationId)?.owner;
    return owner?.kind === 'sandbox' ? owner.sandboxId : null;
  }

  /** Whether the sandbox may stop once unused: it wants to, runs, and its agents are done. */
  private due(sandboxId: string): { since: number } | null {
    const doc = sandboxQueries(this.readModels).get(sandboxId);
    if (doc?.status !== 'running' || doc.settings?.stopWhenAgentsFinish !== true) return null;
    const all = sandboxConversations(this.readModels, sandboxId);
    if (!all.some((c) => c.turns > 0 && c.currentTurn === null)) return null;
    if (all.some((c) => c.currentTurn !== null || c.queued > 0)) return null;
    const since = Math.max(
      ...all.map((c) => Date.parse(c.updatedAt)),
      Date.parse(doc.updatedAt ?? ''),
    );
    return { since: Number.isFinite(since) ? since : 0 };
  }

  async arm(sandboxId: string): Promise<void> {
    const id = `${AGENTS_FINISHED_PREFIX}${sandboxId}`;
    const due = this.due(sandboxId);
    if (due === null) {
      await this.jobs.cancel(id);
      return;
    }
    const idle = this.use.idleMs(sandboxId, due.since);
    const wait = Math.max(0, AGENTS_FINISHED_UNUSED_MS - Math.max(0, idle));
    const runAt = new Date(this.clock.now().getTime() + wait);
    await this.jobs.schedule({ id, runAt, data: { sandboxId } });
  }

  private async fired(fire: JobFire): Promise<void> {
    if (fire.kind !== 'delayed' || !fire.id.startsWith(AGENTS_FINISHED_PREFIX)) return;
    const sandboxId = fire.id.slice(AGENTS_FINISHED_PREFIX.length);
    const due = this.due(sandboxId);
    if (due === null) return;
    const idle = this.use.idleMs(sandboxId, due.since);
    if (idle < AGENTS_FINISHED_UNUSED_MS) return this.arm(sandboxId);
    this.logger.log(`sandbox ${sandboxId}: its agents finished and it went unused; stopping`);
    await this.sandboxes.stopBySystem(sandboxId, 'agents_finished');
  }
}
