import { z } from 'zod';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const agentConversationsTool = sandboxTool({
  name: 'agent_conversations',
  title: "List a sandbox's conversations, or read one's events",
  description:
    "Without conversation, returns the sandbox's conversations, most recently active first, each with id, harness, model, status (idle, running, queued, failed or interrupted), turns, queued, preview, created_at and updated_at. With conversation, returns events (after the seq `after`), the conversation's status and next_after. A turn has ended when its turn_finished event arrives; call again with after set to next_after to read newer events. The sandbox's secrets are masked in events.",
  input: {
    sandbox: sandboxRef(),
    conversation: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("Return this conversation's events instead of the list."),
    after: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('With conversation: return events after this seq. Default 0.'),
  },
  scope: 'sandboxes:read',
  annotations: { readOnlyHint: true },
  handle: (api, caller, args) => api.agents.conversationsOf(caller, args),
});
