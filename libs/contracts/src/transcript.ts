import type { Actor, HarnessOutput } from '@sessionboxer/domain';

export type MarkerKind =
  | 'session-created'
  | 'session-renamed'
  | 'session-stopped'
  | 'session-resumed'
  /** In the creating agent's transcript: it created (or forked) another session. */
  | 'child-session-created'
  | 'snapshot-taken'
  | 'session-reverted'
  | 'pr-attached'
  | 'notified'
  | 'pane-opened'
  | 'terminal-opened'
  | 'box-failed'
  | 'recording-finished'
  | 'recording-narrated'
  /** A prompt that waits in the queue of one of the session's conversations. */
  | 'prompt-queued'
  /** An Auto QA run opened, and how it closed. */
  | 'verification-opened'
  | 'verification-finished'
  | 'verification-skipped'
  /** An agent asked a person (an approval card), and how it was settled. */
  | 'approval-requested'
  | 'approval-answered'
  /** In the sender's transcript: its agent messaged another session's. */
  | 'message-sent'
  /** In the creating agent's transcript: it created a scheduled task (schedule_create). */
  | 'schedule-created'
  /** The box's egress proxy refused a connection (not on the allow list, a refused address). */
  | 'egress-refused'
  /** The agent asked for an SSH terminal (the terminal MCP from the registry), and how it went. */
  | 'ssh-terminal-requested'
  | 'ssh-terminal-answered';

/**
 * What a marker points to: a session, a PR (its url), a snapshot, a Terminal, a recording or
 * an Auto QA run of its session, an approval card, a scheduled task.
 */
export type MarkerLink =
  | { sessionId: string }
  | { url: string }
  | { snapshotId: string }
  | { terminalId: string }
  | { recording: string }
  | { verificationRunId: string }
  | { approvalId: string }
  | { scheduleId: string }
  | { sshTerminalId: string };

/** A small line in a session's transcript, at the point where the action happened. */
export interface TranscriptMarker {
  /** The event's id (with `:creator` for the marker in the creating session's transcript). */
  id: string;
  sessionId: string;
  /** Global position of the event: where the marker sits among the session's messages. */
  position: number;
  at: string;
  actor: Actor;
  kind: MarkerKind;
  text: string;
  /** What the marker names, or null. */
  link: MarkerLink | null;
}

interface SpecBase {
  seq: number;
  at: string;
  turn: number;
}

/** One event of a conversation as the spec's agent_conversations API gives it. */
export type SpecConversationEvent = SpecBase &
  (
    | {
        type: 'prompt';
        text: string;
        model: string;
        promptId: string;
        from: Actor;
        briefing: string | null;
      }
    // The agent's outputs as the harness gives them (the domain's), but its session id.
    | Exclude<HarnessOutput, { type: 'harness_session' }>
  );

/** One line of a session's transcript: a marker, or an event of a conversation it owns. */
export type TranscriptEntry =
  | { kind: 'marker'; position: number; at: string; marker: TranscriptMarker }
  | {
      kind: 'event';
      position: number;
      at: string;
      conversationId: string;
      event: SpecConversationEvent;
    };

/** `GET /api/sessions/:id/transcript`. */
export interface TranscriptPage {
  entries: TranscriptEntry[];
  /** Pass as `after` for the next page; null when this page was the last. */
  next: number | null;
}

/** `GET /api/sessions/:id/queue` (and its edit and drop): a prompt waiting for its turn. */
export interface QueuedPrompt {
  /** The promptId. */
  id: string;
  text: string;
  /** 1: sent next. */
  position: number;
  /** The model asked for that turn, or null for the conversation's. */
  model: string | null;
  from: Actor;
  queuedAt: string;
}

/** `POST /api/sessions/:id/prompts`: where the prompt went. */
export interface PromptReceipt {
  conversationId: string;
  promptId: string;
  /** running: its turn started now; queued: it waits behind the running turn or others. */
  status: 'running' | 'queued';
  turn: number | null;
  /** Its place in the queue, 1 first; 0 when its turn started at once. */
  position: number;
}
