import { id } from '../kit/fields';
import { timeoutSeconds, WAIT_DEFAULT, WAIT_MAX } from './session-fields';
import { defineTool } from '../kit/define-tool';

export const approvalWaitInput = { id: id('id'), timeout_seconds: timeoutSeconds() };

export const approvalWaitTool = defineTool({
  name: 'approval_wait',
  title: "Wait for the person's answer",
  description: [
    "Wait for the person's answer to a pending approval (the id session_create returned), at",
    `most timeout_seconds (1–${WAIT_MAX}, default ${WAIT_DEFAULT}). Returns { id, kind, summary,`,
    'status, expiresAt, result?, error? }, status being pending, allowed, denied or expired (an',
    'unanswered card expires after 10 minutes and counts as denied); with allowed, result is what',
    'the approved action returned (the created session). Call again while pending and tell the',
    'person what you are waiting for; if your turn ends, the card still creates the session when',
    'they allow it.',
  ].join(' '),
  input: approvalWaitInput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  route: 'control-plane',
});
