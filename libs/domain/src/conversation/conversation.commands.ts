import type { Actor, Command } from '../kernel';
import type { HarnessName } from '../limits';
import type { ContextUse, ConversationOwner, TurnStatus } from './conversation.events';

/**
 * One thing a harness reported during a turn, before the conversation numbers it: the spec's
 * events without seq, at and turn, plus the harness's own conversation id. Harness adapters
 * (apps/box-agent/src/harness) turn a CLI's stream into these.
 */
export type HarnessOutput =
  | { type: 'message'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; id: string; output: string; error: boolean }
  | { type: 'error'; code: string; message: string }
  | {
      type: 'turn_finished';
      status: TurnStatus;
      input_tokens: number;
      output_tokens: number;
      usage: Record<string, unknown> | null;
      context: ContextUse | null;
      /** What the turn cost in US dollars, when the CLI says (Claude Code, OpenCode). */
      cost_usd?: number;
    }
  | { type: 'harness_session'; id: string };

export type HarnessOutputType = HarnessOutput['type'];

/**
 * Send a prompt. It starts a turn at once when none runs and nothing waits, else it joins the
 * queue; `queue: true` always queues (the owner cannot run a turn now, e.g. a stopped session).
 * A conversation that does not exist yet is started with `owner`, `harness` and `model`.
 */
export type SubmitPrompt = Command<
  'SubmitPrompt',
  {
    conversationId: string;
    owner: ConversationOwner;
    harness: HarnessName;
    promptId: string;
    text: string;
    /** The model for this turn and those after it; null keeps the conversation's. */
    model: string | null;
    from: Actor;
    /** How many agents prompted agents to get here (see MAX_HOPS); 0 or absent from a person. */
    hop?: number;
    /** Told to the agent before the prompt when this prompt opens the conversation's first turn. */
    briefing: string | null;
    queue?: boolean;
  }
>;

/** Starts the next queued prompt's turn if no turn runs; nothing when none waits. */
export type StartNextTurn = Command<
  'StartNextTurn',
  { conversationId: string; briefing: string | null }
>;

/**
 * Records what the harness of `turn` reported. `fromIndex` numbers the first output within
 * the turn (0, 1, …), so a batch resent after a reconnect is recorded once; output of a turn
 * that has already ended (interrupted, say) is dropped.
 */
export type RecordHarnessOutput = Command<
  'RecordHarnessOutput',
  { conversationId: string; turn: number; fromIndex: number; outputs: HarnessOutput[] }
>;

/** Ends the running turn as interrupted (a person pressed stop, the session was stopped). */
export type InterruptTurn = Command<'InterruptTurn', { conversationId: string }>;

/** Ends `turn` as failed with an error the harness could not report itself. */
export type FailTurn = Command<
  'FailTurn',
  { conversationId: string; turn: number; code: string; message: string }
>;

export type EditQueuedPrompt = Command<
  'EditQueuedPrompt',
  { conversationId: string; promptId: string; text: string }
>;

export type DropQueuedPrompt = Command<
  'DropQueuedPrompt',
  { conversationId: string; promptId: string }
>;

export type ConversationCommand =
  | SubmitPrompt
  | StartNextTurn
  | RecordHarnessOutput
  | InterruptTurn
  | FailTurn
  | EditQueuedPrompt
  | DropQueuedPrompt;
