import { RECORDING_CAPTION_MAX } from '@sessionboxer/domain';
import { line } from '../../kit/fields';
import { defineInBoxTool } from '../../kit/define-tool';
import type { CaptionAdded, RecordingPort } from './port';

export const CAPTION_MAX = RECORDING_CAPTION_MAX;

export const annotateRecordingInput = { text: line('text', CAPTION_MAX) };

/** Adds a caption to the running recording at this moment. */
export const annotateRecordingTool = defineInBoxTool({
  name: 'annotate_recording',
  title: 'Caption the recording',
  description: [
    'Add a caption to the running recording at this moment: one short sentence saying what you',
    'are about to do or what the screen now shows ("Submitting the form with an empty email").',
    'Each caption stays on screen until the next one; call it right before each step. text:',
    `1–${CAPTION_MAX} characters on one line. Returns { at, text, path }, at being the seconds`,
    'from the start of the recording. Fails when nothing is recording.',
  ].join(' '),
  input: annotateRecordingInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'box',
  handle: (port: RecordingPort, { text }): Promise<CaptionAdded> => port.annotate(text),
});
