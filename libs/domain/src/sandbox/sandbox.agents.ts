import { ErrorCode } from '../kernel/errors';
import type { HarnessName } from '../limits';
import { PROMPT_MAX_LENGTH, QUEUE_MAX } from '../conversation/conversation.validation';
import { SIZE_TABLE, type SandboxSize } from './sandbox.limits';
import { badArgument, refusal } from './sandbox.refusals';

/**
 * The coding agents of a sandbox (the spec's agent_prompt and agent_conversations): which
 * harnesses and models a prompt may name, what credentials a harness needs among the
 * sandbox's secrets, and how many conversations run at a time. Pure; docs/SANDBOXES.md.
 */

/** The spec's harness names; `scripted` (no model) only where an operator enables it. */
export type SandboxHarness = 'claude' | 'opencode' | 'scripted';
export const SPEC_HARNESSES: readonly SandboxHarness[] = ['claude', 'opencode'];

/** Spec name → the conversation model's harness, and back. */
export const HARNESS_OF: Readonly<Record<SandboxHarness, HarnessName>> = {
  claude: 'claude-code',
  opencode: 'opencode',
  scripted: 'scripted',
};
export function specHarness(harness: HarnessName): SandboxHarness {
  return harness === 'claude-code' ? 'claude' : harness;
}

export const AGENT_PROMPT_MAX_LENGTH = PROMPT_MAX_LENGTH;
export const AGENT_WAIT_DEFAULT_SECONDS = 60;
export const AGENT_WAIT_MAX_SECONDS = 300;
/** A sandbox runs one conversation at a time per GiB of memory: 2, 4, 8, 16. */
export function conversationsCap(size: SandboxSize): number {
  return SIZE_TABLE[size].memory_gib;
}

const CLAUDE_ALIASES = ['sonnet', 'opus', 'haiku'];
const CLAUDE_FULL = /^claude-[a-z0-9][a-z0-9.-]{0,99}(@[a-z0-9._-]{1,40})?$/;
const OPENCODE_MODEL = /^[a-z0-9][a-z0-9._-]{0,39}\/[A-Za-z0-9][\w.:@-]{0,99}$/;

/** The model a prompt names, checked for its harness: unknown_model otherwise. */
export function checkModel(harness: SandboxHarness, model: string): string {
  const ok =
    harness === 'claude'
      ? CLAUDE_ALIASES.includes(model) || CLAUDE_FULL.test(model)
      : harness === 'opencode'
        ? OPENCODE_MODEL.test(model)
        : /^[\w.:/@-]{1,100}$/.test(model);
  if (ok) return model;
  const want =
    harness === 'claude'
      ? 'sonnet, opus, haiku or a full model name such as claude-sonnet-4-5'
      : 'provider/model, such as anthropic/claude-sonnet-4-5 or opencode/…';
  throw refusal(
    'unknown_model',
    ErrorCode.ValidationFailed,
    `model ${JSON.stringify(model)} is not a ${harness} model: use ${want}`,
    { field: 'model' },
  );
}

/**
 * The secrets of which the sandbox must name at least one for the harness and model (the
 * agent uses the sandbox's own key); empty when none is needed (OpenCode's opencode/… models,
 * the scripted harness).
 */
export function credentialSecrets(harness: SandboxHarness, model: string | null): string[] {
  if (harness === 'scripted') return [];
  if (harness === 'claude') return ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'];
  if (model === null) return ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'];
  const provider = model.slice(0, model.indexOf('/'));
  if (provider === 'opencode') return [];
  return [`${provider.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`];
}

/** One of the sandbox's conversations, as far as a prompt's checks need it. */
export interface AgentConversationFacts {
  id: string;
  harness: HarnessName;
  /** A turn runs, or prompts wait. */
  active: boolean;
  queued: number;
  /** `at` of its last event: the most recent is the one a prompt continues. */
  updatedAt: string;
}

export interface AgentPromptArgs {
  prompt: string;
  conversation?: string;
  new?: boolean;
  harness?: string;
  model?: string;
}

/** Where a prompt goes: an existing conversation, or a new one (`conversationId` null). */
export interface AgentPromptTarget {
  conversationId: string | null;
  harness: SandboxHarness;
  model: string | null;
}

function checkHarness(value: string | undefined, scripted: boolean): SandboxHarness | undefined {
  if (value === undefined) return undefined;
  const known = scripted ? [...SPEC_HARNESSES, 'scripted'] : SPEC_HARNESSES;
  if (known.includes(value as SandboxHarness)) return value as SandboxHarness;
  throw refusal(
    'unknown_harness',
    ErrorCode.ValidationFailed,
    `harness ${JSON.stringify(value)} is not one of ${known.join(', ')} (claude is Claude Code)`,
    { field: 'harness' },
  );
}

/** The conversation a prompt continues: the named one, else the most recent (or none). */
function continued(
  args: AgentPromptArgs,
  all: readonly AgentConversationFacts[],
): AgentConversationFacts | null {
  if (args.conversation !== undefined) {
    const found = all.find((c) => c.id === args.conversation);
    if (found) return found;
    throw refusal(
      'conversation_not_found',
      ErrorCode.NotFound,
      `this sandbox has no conversation ${args.conversation}; agent_conversations lists its conversations`,
      { field: 'conversation' },
    );
  }
  if (args.new === true) return null;
  return [...all].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0] ?? null;
}

/**
 * Decides where a prompt goes, or refuses it with the spec's code: unknown_harness,
 * conversation_not_found, harness_mismatch, unknown_model, credentials_missing, too_many_turns.
 * (not_running and agent_unavailable depend on the box: the caller checks them.)
 */
export function decideAgentPrompt(
  args: AgentPromptArgs,
  sandbox: { size: SandboxSize; secrets: readonly string[] },
  conversations: readonly AgentConversationFacts[],
  options: { scripted: boolean },
): AgentPromptTarget {
  if (args.new === true && args.conversation !== undefined) {
    throw badArgument('new', 'pass conversation or new, not both');
  }
  const asked = checkHarness(args.harness, options.scripted);
  let target = continued(args, conversations);
  if (target && asked !== undefined && specHarness(target.harness) !== asked) {
    if (args.conversation !== undefined) {
      throw refusal(
        'harness_mismatch',
        ErrorCode.ValidationFailed,
        `conversation ${target.id} runs ${specHarness(target.harness)}, not ${asked}: leave harness out, or start a new conversation`,
        { field: 'harness' },
      );
    }
    // A harness that differs from the most recent conversation's starts a new one.
    target = null;
  }
  const harness = target ? specHarness(target.harness) : (asked ?? 'claude');
  const model = args.model === undefined ? null : checkModel(harness, args.model);
  const needed = credentialSecrets(harness, model);
  if (needed.length > 0 && !needed.some((n) => sandbox.secrets.includes(n))) {
    throw refusal(
      'credentials_missing',
      ErrorCode.InvalidState,
      `${harness} needs a credential: create the sandbox with one of the secrets ${needed.join(', ')} (set_secret with the sandboxes product, then sandbox_create with secrets)`,
      { needs: needed },
    );
  }
  checkCapacity(target, sandbox.size, conversations);
  return { conversationId: target?.id ?? null, harness, model };
}

function checkCapacity(
  target: AgentConversationFacts | null,
  size: SandboxSize,
  all: readonly AgentConversationFacts[],
): void {
  if (target && target.queued >= QUEUE_MAX) {
    throw refusal(
      'too_many_turns',
      ErrorCode.LimitReached,
      `${QUEUE_MAX} prompts already wait in conversation ${target.id}; wait for its turns to run`,
      { queued: target.queued },
    );
  }
  if (target?.active) return;
  const cap = conversationsCap(size);
  const active = all.filter((c) => c.active).length;
  if (active >= cap) {
    throw refusal(
      'too_many_turns',
      ErrorCode.LimitReached,
      `a ${size} sandbox runs up to ${cap} conversations at a time and ${active} are running; wait for one to finish, prompt a running one (its queue), or use a larger size`,
      { running: active, limit: cap },
    );
  }
}
