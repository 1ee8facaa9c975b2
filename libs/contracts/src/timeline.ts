// An auditor's one timeline of a session across layers (GET /api/sessions/:id/timeline) and
// the snapshots taken automatically at each turn's end (GET /api/sessions/:id/snapshots/turns).
import type { Actor, RecordingCaption } from '@sessionboxer/domain';

/** What a timeline entry is; `?kinds=` filters by these. */
export type TimelineKind =
  | 'command'
  | 'turn'
  | 'tool_call'
  | 'marker'
  | 'approval'
  | 'terminal'
  | 'recording'
  | 'snapshot'
  | 'egress'
  | 'box';

/** Where in the session's page an entry is shown in full: a pane, and what to bring into view. */
export interface TimelineLink {
  pane: 'transcript' | 'terminals' | 'snapshots' | 'recordings' | 'prs' | 'autoqa';
  snapshotId?: string;
  terminalId?: string;
  recording?: string;
  runId?: string;
}

/** One event of the session's history, in global order. */
export interface TimelineEntry {
  /** The event's global position: the order, and the cursor for `?after=`. */
  position: number;
  at: string;
  kind: TimelineKind;
  /** The event's type as recorded (TurnStarted, EgressRefused, …). */
  type: string;
  /** Who caused it (from the command's metadata); for an approval's answer, who answered. */
  actor: Actor | null;
  /** The command that recorded it. */
  commandId: string | null;
  /** One line saying what happened. */
  summary: string;
  /** The agent's turn it belongs to, when it is part of one. */
  turn: number | null;
  link: TimelineLink | null;
  /** A recording's captions. */
  captions?: RecordingCaption[];
  /** A Terminal's output as a byte range of its whole output, `to` exclusive (no bytes here). */
  terminalBytes?: { terminalId: string; from: number; to: number };
}

export interface TimelinePage {
  entries: TimelineEntry[];
  /** Pass as `after` for the next page; null on the last one. */
  next: number | null;
}

/** A snapshot taken when a turn ended: fork or rewind the session from that turn. */
export interface TurnSnapshot {
  id: string;
  sessionId: string;
  turn: number;
  /** The global position of the turn's end: a fork's transcript stops there. */
  conversationPosition: number;
  sizeBytes: number;
  files: number;
  /** What it added to the blob store: the files no earlier snapshot had. */
  newBytes: number;
  createdAt: string;
}
