import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DomainError, ErrorCode, type SessionDeleted } from '@sessionboxer/domain';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { Reactor } from '@sessionboxer/projections';
import { BLOB_GC_NOW_JOB, BoxLifecycle } from '../boxes';
import type { AppConfig } from '../config';
import { Reactors } from '../infrastructure/reactors';
import { APP_CONFIG } from '../infrastructure/tokens';
import { JOBS, type JobsPort } from '../jobs';

/**
 * The reaction to `SessionDeleted`: its box is destroyed (workspace and snapshots with it) and
 * a blob collection is asked for through the jobs port, so the blobs only its turn snapshots
 * named are freed now rather than at the next hourly run. A session whose box never existed
 * or is already gone has nothing to destroy. A reactor with a checkpoint, so a deletion the
 * control plane went down in the middle of is finished at the next start.
 */
@Injectable()
export class DeletedSessions implements Reactor, OnModuleInit {
  readonly name = 'deleted_session_destroys_box';
  readonly handles = ['SessionDeleted'];

  constructor(
    private readonly reactors: Reactors,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOBS) private readonly jobs: JobsPort,
    private readonly boxes: BoxLifecycle,
  ) {}

  onModuleInit(): void {
    if (this.config.boxes) this.reactors.register(this);
  }

  async react(event: RecordedEvent): Promise<void> {
    const { sessionId } = (event as RecordedEvent & SessionDeleted).data;
    try {
      await this.boxes.destroy(sessionId);
    } catch (e) {
      const nothingThere =
        e instanceof DomainError &&
        (e.code === ErrorCode.NotFound || e.code === ErrorCode.InvalidState);
      if (!nothingThere) throw e;
    }
    // One pending collection serves every deletion before it runs (the same id replaces it).
    await this.jobs.schedule({ id: BLOB_GC_NOW_JOB, runAt: new Date() });
  }
}
