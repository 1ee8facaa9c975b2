import { Inject, Injectable } from '@nestjs/common';
import type { Actor } from '@sessionboxer/domain/kernel';
import {
  DEFAULT_ENVIRONMENT,
  noSandbox,
  refusal,
  sandboxDecider,
  sandboxNamesDecider,
  sandboxNamesStream,
  sandboxSettings,
  sandboxStream,
  type SandboxCommand,
  type StoppedReason,
} from '@sessionboxer/domain/sandbox';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import { deterministicUuid } from '@sessionboxer/event-store';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { sandboxQueries, type SandboxDoc } from '@sessionboxer/projections/sandboxes.projection';
import type { KeyIdentity } from '../api-keys';
import { Clock, IdGenerator } from '../infrastructure/clock';
import { CommandBus } from '../infrastructure/command-bus';
import { READ_MODELS } from '../infrastructure/tokens';
import { Environments } from './environments.service';
import { SandboxBoxes } from './sandbox-boxes';
import { SandboxEdge } from './sandbox-edge';
import { SandboxIdle } from './sandbox-idle';
import { SandboxSecrets } from './sandbox-secrets';
import { sandboxView, type SandboxView } from './sandbox-view';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
type Args = Record<string, unknown>;

/** The sandbox lifecycle: every change a command of the sandbox's stream, its box alongside. */
@Injectable()
export class Sandboxes {
  constructor(
    private readonly bus: CommandBus,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly environments: Environments,
    private readonly boxes: SandboxBoxes,
    private readonly secrets: SandboxSecrets,
    private readonly idle: SandboxIdle,
    private readonly edge: SandboxEdge,
  ) {
    idle.onIdle((sandboxId) => this.stopBySystem(sandboxId, 'idle'));
  }

  view(doc: SandboxDoc): SandboxView {
    return sandboxView(doc.id, doc, this.clock.now().toISOString());
  }

  /** A name or an id of the caller's org; another org's sandbox answers like a missing one. */
  resolve(caller: KeyIdentity, ref: unknown): SandboxDoc {
    if (typeof ref !== 'string' || ref.length === 0) throw noSandbox(String(ref));
    const q = sandboxQueries(this.readModels);
    const byId = UUID.test(ref) ? q.get(ref) : null;
    const doc =
      byId ?? q.list(caller.orgId).find((d) => d.status !== 'deleted' && d.settings?.name === ref);
    if (!doc || doc.settings?.orgId !== caller.orgId) throw noSandbox(ref);
    return doc;
  }

  list(
    caller: KeyIdentity,
    all: boolean,
    metadata: Record<string, string> | undefined,
  ): SandboxView[] {
    return sandboxQueries(this.readModels)
      .list(caller.orgId)
      .filter((d) => all || d.status !== 'deleted')
      .filter((d) =>
        Object.entries(metadata ?? {}).every(([k, v]) => d.settings?.metadata[k] === v),
      )
      .map((d) => this.view(d));
  }

  async create(caller: KeyIdentity, args: Args, forkedFrom?: SandboxDoc): Promise<SandboxView> {
    const key = typeof args.idempotency_key === 'string' ? args.idempotency_key : undefined;
    const sandboxId = key ? deterministicUuid(`${caller.orgId}/sandbox/${key}`) : this.ids.next();
    const actor = actorOf(caller);
    const command = {
      type: 'CreateSandbox',
      data: { sandboxId, orgId: caller.orgId, args, forkedFrom: forkedFrom?.id ?? null },
      metadata: this.bus.metadata(actor),
    } as const;
    // Every parameter checked, and the secrets against their environment, before anything is written.
    const settings = sandboxSettings(command);
    const existing = sandboxQueries(this.readModels).get(sandboxId);
    if (existing) return this.view(await this.settled(sandboxId));
    await this.environments.check(caller.orgId, settings.environment, settings.secrets);
    await this.bus.execute(sandboxNamesDecider, sandboxNamesStream(caller.orgId), {
      type: 'ClaimSandboxName',
      data: { orgId: caller.orgId, sandboxId, name: settings.name },
      metadata: this.bus.metadata(actor),
    });
    const result = await this.bus.execute(sandboxDecider, sandboxStream(sandboxId), command);
    if (result.events.length === 0 || result.replayed)
      return this.view(await this.settled(sandboxId));
    try {
      await this.secrets.load(sandboxId, caller.orgId, settings.environment, settings.secrets);
      await this.boxes.start(sandboxId, forkedFrom?.id);
      await this.run(caller, sandboxId, { type: 'RecordSandboxStarted', data: { sandboxId } });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      await this.run(caller, sandboxId, { type: 'FailSandbox', data: { sandboxId, reason } });
      await this.release(caller, sandboxId);
      throw refusal(
        'unavailable',
        ErrorCode.Unavailable,
        `the sandbox's box did not start: ${reason}`,
      );
    }
    return this.armed(sandboxId);
  }

  async update(caller: KeyIdentity, ref: unknown, args: Args): Promise<SandboxView> {
    const { id } = this.resolve(caller, ref);
    await this.run(caller, id, { type: 'UpdateSandbox', data: { sandboxId: id, args } });
    return this.armed(id);
  }

  async stop(
    caller: KeyIdentity,
    ref: unknown,
    reason: StoppedReason = 'requested',
  ): Promise<SandboxView> {
    const doc = this.resolve(caller, ref);
    const result = await this.run(caller, doc.id, {
      type: 'StopSandbox',
      data: { sandboxId: doc.id, reason },
    });
    if (result.length > 0) await this.boxes.freeze(doc.id);
    return this.view(this.doc(doc.id));
  }

  async resume(caller: KeyIdentity, ref: unknown): Promise<SandboxView> {
    const doc = this.resolve(caller, ref);
    if (doc.status === 'stopped') {
      const s = doc.settings!;
      // Secrets are read again from the environment (refused if one is gone), then the box thaws.
      await this.secrets.load(doc.id, caller.orgId, s.environment, s.secrets);
      await this.boxes.thaw(doc.id);
    }
    await this.run(caller, doc.id, { type: 'ResumeSandbox', data: { sandboxId: doc.id } });
    return this.armed(doc.id);
  }

  async fork(caller: KeyIdentity, ref: unknown, name: unknown): Promise<SandboxView> {
    const source = this.resolve(caller, ref);
    if (source.status !== 'running' && source.status !== 'stopped') {
      throw refusal(
        'not_running',
        ErrorCode.InvalidState,
        `sandbox ${source.settings?.name} is ${source.status}: only a running or stopped one can be forked`,
      );
    }
    const s = source.settings!;
    const args: Args = {
      size: s.size,
      secrets: s.secrets,
      environment: s.environment,
      idle_timeout_seconds: s.idleTimeoutSeconds,
      stop_when_agents_finish: s.stopWhenAgentsFinish,
      metadata: s.metadata,
      ...(name === undefined ? {} : { name }),
    };
    return this.create(caller, args, source);
  }

  async destroy(caller: KeyIdentity, ref: unknown): Promise<SandboxView> {
    const doc = this.resolve(caller, ref);
    await this.boxes.destroy(doc.id);
    await this.edge.close(doc.id);
    this.secrets.forget(doc.id);
    await this.run(caller, doc.id, { type: 'DestroySandbox', data: { sandboxId: doc.id } });
    await this.release(caller, doc.id);
    return this.view(this.doc(doc.id));
  }

  /** A running sandbox of the caller's org, or not_running / deleted. */
  running(caller: KeyIdentity, ref: unknown): SandboxDoc {
    const doc = this.resolve(caller, ref);
    if (doc.status === 'running') return doc;
    const code = doc.status === 'deleted' ? 'deleted' : 'not_running';
    throw refusal(
      code,
      ErrorCode.InvalidState,
      `sandbox ${doc.settings?.name} is ${doc.status}; resume it with sandbox_resume first`,
    );
  }

  /** A job's stop (idle, agents_finished): by the system, with its reason. */
  async stopBySystem(sandboxId: string, reason: StoppedReason): Promise<void> {
    const metadata = this.bus.metadata({ kind: 'system', id: `sandbox-${reason}` });
    const command: SandboxCommand = { type: 'StopSandbox', data: { sandboxId, reason }, metadata };
    const result = await this.bus.execute(sandboxDecider, sandboxStream(sandboxId), command);
    if (result.events.length > 0) await this.boxes.freeze(sandboxId);
  }

  private async armed(id: string): Promise<SandboxView> {
    const doc = this.doc(id);
    await this.idle.arm(doc);
    return this.view(doc);
  }

  private doc(id: string): SandboxDoc {
    const doc = sandboxQueries(this.readModels).get(id);
    if (!doc) throw noSandbox(id);
    return doc;
  }

  /** A sandbox another call is creating: its answer once its box runs (or failed). */
  private async settled(id: string): Promise<SandboxDoc> {
    for (let i = 0; i < 600; i++) {
      const doc = sandboxQueries(this.readModels).get(id);
      if (doc && doc.status !== 'creating') return doc;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw refusal(
      'unavailable',
      ErrorCode.Unavailable,
      `sandbox ${id} is still being created; try again`,
    );
  }

  private async run(
    caller: KeyIdentity,
    sandboxId: string,
    c: Pick<SandboxCommand, 'type' | 'data'>,
  ) {
    const command = { ...c, metadata: this.bus.metadata(actorOf(caller)) } as SandboxCommand;
    return (await this.bus.execute(sandboxDecider, sandboxStream(sandboxId), command)).events;
  }

  private async release(caller: KeyIdentity, sandboxId: string): Promise<void> {
    await this.bus.execute(sandboxNamesDecider, sandboxNamesStream(caller.orgId), {
      type: 'ReleaseSandboxName',
      data: { orgId: caller.orgId, sandboxId },
      metadata: this.bus.metadata(actorOf(caller)),
    });
  }
}

export function actorOf(caller: KeyIdentity): Actor {
  return { kind: 'api-key', keyId: caller.keyId, orgId: caller.orgId };
}

export { DEFAULT_ENVIRONMENT };
