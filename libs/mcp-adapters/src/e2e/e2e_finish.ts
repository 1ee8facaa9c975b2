import { defineTool } from '../kit/define-tool';
import { E2E_LIMITS, paragraph, workspaceFile } from './fields';

export const e2eFinishInput = {
  video: workspaceFile('video').optional(),
  summary: paragraph('summary', E2E_LIMITS.summary).optional(),
};

/** Closes the session's open run with its verdict and video. */
export const e2eFinishTool = defineTool({
  name: 'e2e_finish',
  title: 'Finish the verification run',
  description: [
    'Close the current Auto QA run after stop_recording: video is the path stop_recording',
    'returned (under /workspace), attached to the run; summary (optional, 1–',
    `${E2E_LIMITS.summary} characters) says what was verified. Cases never started are marked`,
    "skipped; the run's verdict is passed when no case's last attempt failed. No case may still",
    'be running. Needs an open verification run with its cases planned; without one it errors.',
    'Returns the closed run. Then end your reply with a short summary that mentions the',
    "video's path, so the chat shows the player.",
  ].join(' '),
  input: e2eFinishInput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  route: 'e2e',
});
