import {
  RECORDING_CAPTION_MAX,
  RECORDING_CAPTIONS_MAX,
  RECORDING_NARRATIONS,
  RECORDING_SECONDS_MAX,
} from '@sessionboxer/domain';
import { z } from 'zod';

/**
 * What a box's desktop server reports to the control plane (route `desktop`) when a recording
 * is finished or narrated: not tools the agent calls, but the same one-schema rule. The limits
 * are the session decider's (RecordRecording, RecordRecordingNarrated), so a report the schema
 * takes is one the decider records; the decider still checks the paths are under /workspace.
 */

/** Paths the box reports: the decider takes any length, this bounds what a frame may carry. */
const PATH_MAX = 1000;
/** An ISO 8601 date and time. */
const DATE_MAX = 40;

const seconds = () => z.number().nonnegative().max(RECORDING_SECONDS_MAX);
const path = () => z.string().min(1).max(PATH_MAX);

export const recordingCaptionsReport = z
  .array(z.object({ at: seconds(), text: z.string().min(1).max(RECORDING_CAPTION_MAX) }))
  .max(RECORDING_CAPTIONS_MAX);

/** `recording_finished`: stop_recording's result, as the session's history keeps it. */
export const recordingFinishedReport = z
  .object({
    path: path(),
    startedAt: z.string().min(1).max(DATE_MAX),
    recordedSeconds: seconds(),
    seconds: seconds(),
    bytes: z.number().int().nonnegative(),
    captions: recordingCaptionsReport,
    track: path().nullable(),
    narration: z.enum(RECORDING_NARRATIONS).nullable(),
  })
  .strict();
export type RecordingFinishedReport = z.infer<typeof recordingFinishedReport>;

/** `recording_narrated`: narrate_recording added narration to a finished recording. */
export const recordingNarratedReport = z
  .object({
    path: path(),
    seconds: seconds(),
    bytes: z.number().int().nonnegative(),
    captions: recordingCaptionsReport,
    track: path().nullable(),
  })
  .strict();
export type RecordingNarratedReport = z.infer<typeof recordingNarratedReport>;
