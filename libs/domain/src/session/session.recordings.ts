import { DomainError, ErrorCode } from '../kernel';
import type { Command, DomainEvent } from '../kernel';
import type { SessionEvent } from './session.events';
import { existingSession, type SessionState } from './session.state';

/** How a recording's narration ended (stop_recording's `narration`), or null with no captions. */
export type RecordingNarration = 'added' | 'pending' | 'skipped' | null;

export interface RecordingCaption {
  /** Seconds from the start of the finished video. */
  at: number;
  text: string;
}

export interface RecordingData {
  sessionId: string;
  /** Inside the box, under /workspace. */
  path: string;
  startedAt: string;
  recordedSeconds: number;
  seconds: number;
  bytes: number;
  captions: RecordingCaption[];
  /** The .vtt beside the video, when one was written. */
  track: string | null;
  narration: RecordingNarration;
}

/** The box's desktop server finished a recording (the web UI shows a player from it). */
export type RecordRecording = Command<'RecordRecording', RecordingData>;

export type RecordingFinished = DomainEvent<'RecordingFinished', RecordingData & { at: string }>;

/** What narrate_recording changed: the video's length and size, re-timed captions, its track. */
export type NarratedRecordingData = Pick<
  RecordingData,
  'sessionId' | 'path' | 'seconds' | 'bytes' | 'captions' | 'track'
>;

/** Narration added later (after a `pending` answer): the recording's player must follow it. */
export type RecordRecordingNarrated = Command<'RecordRecordingNarrated', NarratedRecordingData>;

export type RecordingNarrated = DomainEvent<
  'RecordingNarrated',
  NarratedRecordingData & { narration: 'added'; at: string }
>;

const MAX_CAPTIONS = 500;
const MAX_CAPTION = 300;
const NARRATIONS: readonly RecordingNarration[] = ['added', 'pending', 'skipped', null];

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
  if (!Number.isFinite(value) || value < 0 || value > 24 * 3600)
    throw invalid(field, 'must be 0–86400 seconds');
  return value;
}

function validCaptions(captions: RecordingCaption[]): RecordingCaption[] {
  if (captions.length > MAX_CAPTIONS) throw invalid('captions', `at most ${MAX_CAPTIONS}`);
  return captions.map((c, i) => {
    if (typeof c.text !== 'string' || c.text.length === 0 || c.text.length > MAX_CAPTION) {
      throw invalid(`captions.${i}.text`, `must be 1–${MAX_CAPTION} characters`);
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
