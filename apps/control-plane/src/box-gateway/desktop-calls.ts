import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, sessionDecider, sessionStream } from '@sessionboxer/domain';
import {
  recordingFinishedReport,
  recordingNarratedReport,
} from '@sessionboxer/mcp-adapters/desktop/recording';
import type { z } from 'zod';
import { CommandBus } from '../infrastructure/command-bus';
import { describe } from './zod-text';

/**
 * The `desktop` route: not tools the agent calls, but what the box's desktop server tells the
 * control plane (a finished recording becomes an event of the session's history).
 */
@Injectable()
export class DesktopCalls {
  constructor(private readonly bus: CommandBus) {}

  async handle(sessionId: string, callId: string, tool: string, args: unknown): Promise<unknown> {
    const metadata = this.bus.metadata({ kind: 'agent', sessionId }, `call/${callId}`);
    const stream = sessionStream(sessionId);
    if (tool === 'recording_finished') {
      const data = { sessionId, ...parse(tool, recordingFinishedReport, args) };
      await this.bus.execute(sessionDecider, stream, { type: 'RecordRecording', data, metadata });
      return { recorded: true };
    }
    if (tool === 'recording_narrated') {
      const data = { sessionId, ...parse(tool, recordingNarratedReport, args) };
      await this.bus.execute(sessionDecider, stream, {
        type: 'RecordRecordingNarrated',
        data,
        metadata,
      });
      return { recorded: true };
    }
    throw new DomainError(
      ErrorCode.NotFound,
      `no desktop report named ${JSON.stringify(tool)} (known: recording_finished, recording_narrated)`,
    );
  }
}

function parse<T>(tool: string, schema: z.ZodType<T>, args: unknown): T {
  const parsed = schema.safeParse(args);
  if (!parsed.success)
    throw new DomainError(ErrorCode.ValidationFailed, `${tool}: ${describe(parsed.error)}`);
  return parsed.data;
}
