import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DomainError, ErrorCode, sessionStream } from '@sessionboxer/domain';
import type { EventStore } from '@sessionboxer/event-store';
import {
  CHECKPOINT_STREAM,
  exportBundle,
  ExportError,
  isChainReader,
  loadOrCreateAuditKey,
  type CheckpointData,
} from '@sessionboxer/event-store/chain';
import type { AppConfig } from '../config';
import { APP_CONFIG, EVENT_STORE } from '../infrastructure/tokens';
import { CredentialsService } from '../settings';
import { exportRedaction, sessionSelection } from './export-scope';

/** `true`, `false` or absent (false); anything else is refused, naming the parameter. */
function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new DomainError(ErrorCode.ValidationFailed, `${name} must be true or false`, {
    field: name,
  });
}

/** For auditors: a session's audit bundle, the same as `sessionboxer export --session`. */
@ApiTags('events')
@Controller('api')
export class ExportController {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: CredentialsService,
  ) {}

  @Get('sessions/:id/export')
  @ApiOperation({
    summary:
      "A session's audit bundle (JSON lines, manifest last): its events whole, the others by digest; verifies offline with the public key (sessionboxer verify --bundle)",
  })
  @ApiQuery({ name: 'redact', required: false, description: 'true: hide secrets (still verifies)' })
  @ApiQuery({ name: 'family', required: false, description: "true: its children's events too" })
  async export(
    @Param('id') id: string,
    @Query('redact') redactParam: unknown,
    @Query('family') familyParam: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const redacted = flag(redactParam, 'redact');
    const family = flag(familyParam, 'family');
    // From the log, not the read models: a deleted session's history is still the auditors'.
    await this.requireRecorded(id);
    const store = this.store;
    if (!isChainReader(store)) {
      throw new DomainError(ErrorCode.Unavailable, 'this event store keeps no hash chain here');
    }
    const key = loadOrCreateAuditKey(this.config.auditKey);
    const [last] = await store.readStream(CHECKPOINT_STREAM, {
      direction: 'backwards',
      maxCount: 1,
    });
    const write = (line: string): Promise<void> => {
      if (!res.headersSent) {
        res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
        res.setHeader('content-disposition', `attachment; filename="session-${id}.audit.jsonl"`);
      }
      return res.write(line) ? Promise.resolve() : new Promise((ok) => res.once('drain', ok));
    };
    try {
      await exportBundle(store, key, last ? (last.data as CheckpointData) : null, write, {
        scope: { session: id, family, redacted },
        select: sessionSelection(id, family),
        redact: redacted ? exportRedaction((v) => this.credentials.mask(v)) : undefined,
      });
    } catch (e) {
      // Nothing sent yet: the error answers as any other; else the download is cut short.
      if (!res.headersSent) {
        throw e instanceof ExportError ? new DomainError(ErrorCode.Conflict, e.message) : e;
      }
      res.destroy(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    res.end();
  }

  /** NOT_FOUND, as every route answers it, unless the log holds the session's stream. */
  private async requireRecorded(id: string): Promise<void> {
    const stream = (() => {
      try {
        return sessionStream(id);
      } catch {
        return null;
      }
    })();
    const [first] = stream ? await this.store.readStream(stream, { maxCount: 1 }) : [];
    if (!first) throw new DomainError(ErrorCode.NotFound, `session ${id} does not exist`);
  }
}
