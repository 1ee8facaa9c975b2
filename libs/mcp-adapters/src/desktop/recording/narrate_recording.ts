import { z } from 'zod';
import { defineInBoxTool } from '../../kit/define-tool';
import type { NarratedRecording, RecordingPort } from './port';

export const RECORDING_PATH_MAX = 4096;

export const narrateRecordingInput = {
  path: z
    .string({ required_error: 'path is required', invalid_type_error: 'path must be a string' })
    .trim()
    .min(1, 'path must not be empty')
    .max(RECORDING_PATH_MAX, `path must be at most ${RECORDING_PATH_MAX} characters`)
    .refine(
      (value) => value.startsWith('/') && value.toLowerCase().endsWith('.mp4'),
      'path must be the absolute .mp4 path that stop_recording returned',
    ),
};

/** Adds spoken narration to a finished recording, rewriting it in place. */
export const narrateRecordingTool = defineInBoxTool({
  name: 'narrate_recording',
  title: 'Narrate a finished recording',
  description: [
    'Add spoken narration to a finished recording: after stop_recording answered narration',
    '{ pending: true } and the person said yes, or when they ask for narration later. path: the',
    '.mp4 under /workspace that stop_recording returned. Rewrites the .mp4 in place with an',
    'audio track speaking its captions (a step shorter than its sentence holds its last frame',
    'until the sentence ends, so the video may grow a little) and rewrites the .vtt. Returns',
    '{ path, seconds, bytes, captions: [{ at, text }] (the new times), track, narration,',
    'warning }.',
  ].join(' '),
  input: narrateRecordingInput,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  route: 'box',
  handle: (port: RecordingPort, { path }): Promise<NarratedRecording> => port.narrate(path),
});
