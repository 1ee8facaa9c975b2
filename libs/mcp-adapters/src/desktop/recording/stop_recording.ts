import { z } from 'zod';
import { defineInBoxTool } from '../../kit/define-tool';
import type { FinishedRecording, RecordingPort } from './port';

export const stopRecordingInput = {
  narrate: z.boolean({ invalid_type_error: 'narrate must be true or false' }).optional(),
};

/** Stops the recording and finishes the video: captions, condensing, .vtt, narration. */
export const stopRecordingTool = defineInBoxTool({
  name: 'stop_recording',
  title: 'Stop recording and finish the video',
  description: [
    'Stop the recording and finish the video. In order: the captions are burned into a band',
    'added under the desktop (nothing on screen is covered; the band fits about three lines and',
    'grows for a longer caption); static stretches are condensed; a .vtt is written with the',
    're-timed captions; narration is added when it applies (narrate: false skips it; left out,',
    "the box's setting decides). Returns { path, startedAt, recordedSeconds (wall-clock length),",
    'seconds (length of the finished video), condensed, bytes, captions: [{ at, text }] (times',
    'in the finished video), track (the .vtt), narration, warning (what did not happen as asked;',
    'the video is still usable) }. narration is absent without captions, else { added: true,',
    'language, voice, speechSeconds, processingSeconds }, or { pending: true, estimatedSeconds,',
    'language, voice, nextStep }: the silent video is delivered; ask the person whether they',
    'want narration and call narrate_recording if they do; or { skipped: "why" }. Mention the',
    'returned path in your reply: the chat shows a player with the captions as steps. Fails',
    'when nothing is recording.',
  ].join(' '),
  input: stopRecordingInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'box',
  handle: (port: RecordingPort, { narrate }): Promise<FinishedRecording> => port.stop(narrate),
});
