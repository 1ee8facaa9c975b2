import { DomainError, ErrorCode } from '../kernel';
import type {
  RecordingCaption,
  RecordingNarration,
  RecordRecording,
  RecordRecordingNarrated,
} from './session.commands';
import type { RecordingFinished, RecordingNarrated, SessionEvent } from './session.events';
import { existingSession, type SessionState } from './session.state';

/**
 * A recording's limits, exported for the schemas that check a box's report before it becomes
 * a command (the gateway's zod, annotate_recording's caption), so they refuse what this would.
 */
export const RECORDING_CAPTIONS_MAX = 500;
export const RECORDING_CAPTION_MAX = 300;
export const RECORDING_SECONDS_MAX = 24 * 3600;
/** How a narration can end; null (no captions) is allowed beside them. */
export const RECORDING_NARRATIONS = ['added', 'pending', 'skipped'] as const;
const NARRATIONS: readonly RecordingNarration[] = [...RECORDING_NARRATIONS, null];

function invalid(field: string, why: string): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, `${field}: ${why}`, { field });
}

function workspacePath(value: string, field: string): string {
  const parts = value.split('/');
  if (!value.startsWith('/workspace/') || parts.includes('..') || value.includes('\0')) {
    throw invalid(field, `must be a file under /workspace, got ${JSON.stringify(value)}`);
  }
  return value;
}

function seconds(value: number, field: string): number {
  if (!Number.isFinite(value) || value < 0 || value > RECORDING_SECONDS_MAX)
    throw invalid(field, `must be 0–${RECORDING_SECONDS_MAX} seconds`);
  return value;
}

function validCaptions(captions: RecordingCaption[]): RecordingCaption[] {
  if (captions.length > RECORDING_CAPTIONS_MAX)
    throw invalid('captions', `at most ${RECORDING_CAPTIONS_MAX}`);
  return captions.map((c, i) => {
    if (
      typeof c.text !== 'string' ||
      c.text.length === 0 ||
      c.text.length > RECORDING_CAPTION_MAX
    ) {
      throw invalid(`captions.${i}.text`, `must be 1–${RECORDING_CAPTION_MAX} characters`);
    }
    return { at: seconds(c.at, `captions.${i}.at`), text: c.text };
  });
}

export function recordRecordingNarrated(
  command: RecordRecordingNarrated,
  state: SessionState,
): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const event: RecordingNarrated['data'] = {
    sessionId: session.sessionId,
    path: workspacePath(data.path, 'path'),
    seconds: seconds(data.seconds, 'seconds'),
    bytes: Math.max(0, Math.floor(data.bytes)),
    captions: validCaptions(data.captions),
    track: data.track === null ? null : workspacePath(data.track, 'track'),
    narration: 'added',
    at: metadata.at,
  };
  return [{ type: 'RecordingNarrated', data: event }];
}

export function recordRecording(command: RecordRecording, state: SessionState): SessionEvent[] {
  const { data, metadata } = command;
  const session = existingSession(state, data.sessionId);
  const captions = validCaptions(data.captions);
  if (!NARRATIONS.includes(data.narration))
    throw invalid('narration', 'must be added, pending, skipped or null');
  const event: RecordingFinished['data'] = {
    sessionId: session.sessionId,
    path: workspacePath(data.path, 'path'),
    startedAt: data.startedAt,
    recordedSeconds: seconds(data.recordedSeconds, 'recordedSeconds'),
    seconds: seconds(data.seconds, 'seconds'),
    bytes: Math.max(0, Math.floor(data.bytes)),
    captions,
    track: data.track === null ? null : workspacePath(data.track, 'track'),
    narration: data.narration,
    at: metadata.at,
  };
  return [{ type: 'RecordingFinished', data: event }];
}
