import { AGENT_PROMPT_MAX_LENGTH, AGENT_WAIT_MAX_SECONDS } from '@sessionboxer/domain/sandbox';
import { z } from 'zod';
import { sandboxRef } from './fields';
import { sandboxTool } from './sandbox-tool';

export const agentPromptTool = sandboxTool({
  name: 'agent_prompt',
  title: 'Send a task to a coding agent in a sandbox',
  description:
    "Sends a task to a conversation of a coding agent (Claude Code or OpenCode) in a running sandbox and waits up to wait_seconds for the turn to end. Returns conversation, turn, status, events and next_after; events holds the turn's events so far (prompt, message, tool_call, tool_result cut at 65,536 characters, turn_finished, error; each with seq, at and turn; the sandbox's secrets masked). If status is running or queued, the turn has not ended: call agent_conversations with conversation and after set to next_after to read the rest. A sandbox runs up to one conversation at a time per GiB of memory (2 small, 4 standard, 8 large, 16 xl); a prompt sent while a turn runs waits in the conversation's queue. The agent uses the sandbox's own credential secret (ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN for claude; the provider's key for OpenCode, none for opencode/… models). Refusals: credentials_missing, not_running, agent_unavailable, too_many_turns, conversation_not_found, unknown_harness, harness_mismatch, unknown_model.",
  input: {
    sandbox: sandboxRef(),
    prompt: z
      .string()
      .min(1)
      .max(AGENT_PROMPT_MAX_LENGTH)
      .describe('Required. The task, up to 262,144 characters.'),
    conversation: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Continue this conversation. Default: the most recent conversation.'),
    new: z.boolean().optional().describe('Start a new conversation. Default false.'),
    harness: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe(
        "claude or opencode (claude is Claude Code). A harness that differs from the most recent conversation's starts a new conversation. With conversation, it must match. Default claude.",
      ),
    model: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'Claude Code: sonnet, opus, haiku, or a full model name. OpenCode: provider/model, for example anthropic/claude-sonnet-4-5, or an opencode/… model, which needs no key. The conversation keeps it for later turns. Default: the harness’s default.',
      ),
    wait_seconds: z
      .number()
      .int()
      .min(0)
      .max(AGENT_WAIT_MAX_SECONDS)
      .optional()
      .describe('0 to 300. 0 returns at once. Default 60.'),
  },
  scope: 'sandboxes:write',
  annotations: { readOnlyHint: false, destructiveHint: true },
  handle: (api, caller, args) => api.agents.prompt(caller, args),
});
