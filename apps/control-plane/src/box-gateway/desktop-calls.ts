import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, sessionDecider, sessionStream } from '@sessionboxer/domain';
import { z } from 'zod';
import { CommandBus } from '../infrastructure/command-bus';
import { describe } from './zod-text';

/** What a box's desktop server reports when a recording is finished (stop_recording's result). */
const recordingFinished = z
  .object({
    path: z.string().min(1).max(1000),
    startedAt: z.string().min(1).max(40),
    recordedSeconds: z.number().nonnegative(),
    seconds: z.number().nonnegative(),
    bytes: z.number().int().nonnegative(),
    captions: z
      .array(z.object({ at: z.number().nonnegative(), text: z.string().min(1).max(300) }))
      .max(500),
    track: z.string().max(1000).nullable(),
    narration: z.enum(['added', 'pending', 'skipped']).nullable(),
  })
  .strict();

/** What it reports when narrate_recording added narration to a finished recording. */
const recordingNarrated = z
  .object({
    path: z.string().min(1).max(1000),
    seconds: z.number().nonnegative(),
    bytes: z.number().int().nonnegative(),
    captions: recordingFinished.shape.captions,
    track: z.string().max(1000).nullable(),
  })
  .strict();

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
      const data = { sessionId, ...parse(tool, recordingFinished, args) };
      await this.bus.execute(sessionDecider, stream, { type: 'RecordRecording', data, metadata });
      return { recorded: true };
    }
    if (tool === 'recording_narrated') {
      const data = { sessionId, ...parse(tool, recordingNarrated, args) };
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
