import { defineInBoxTool } from '../../kit/define-tool';
import type { RecordingInfo, RecordingPort } from './port';

export const startRecordingInput = {};

/** Starts grabbing the desktop into an .mp4 under /workspace/recordings. */
export const startRecordingTool = defineInBoxTool({
  name: 'start_recording',
  title: 'Start recording the desktop',
  description: [
    'Start recording the desktop until stop_recording (an H.264 .mp4 under',
    '/workspace/recordings, which browsers play). Fails when a recording is already running;',
    'one runs at a time, and a stop_recording from a later turn still finds it. Then, before',
    'each step, call annotate_recording with one short sentence, do the step, and finish with',
    'stop_recording. Returns { path, startedAt, seconds: 0, captions: 0 }.',
  ].join(' '),
  input: startRecordingInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'box',
  handle: (port: RecordingPort): Promise<RecordingInfo> => port.start(),
});
