// The page's own shapes, built on the wire's (libs/contracts): which pane shows what, and the
// parts of the shown session as the page keeps them.
import type {
  Notification,
  PolicyView,
  SessionFrame,
  SessionLimits,
  SessionView,
} from '@sessionboxer/contracts';

/** The panes of the session view, in tab order. */
export type PaneName =
  | 'prs'
  | 'changes'
  | 'files'
  | 'desktop'
  | 'autoqa'
  | 'terminals'
  | 'snapshots'
  | 'recordings'
  | 'timeline';

/** What a pane should bring into view when it opens (a marker's link, an agent's ui_open). */
export interface PaneFocus {
  snapshotId?: string;
  terminalId?: string;
  recording?: string;
  runId?: string;
}

/**
 * The `session` frame's parts as the page keeps them: empty until the first REST answer or
 * frame, and the notifications as a list (the REST body and the frame carry a page).
 */
export interface SessionParts extends Omit<
  SessionFrame,
  'sessionId' | 'session' | 'notifications' | 'policy' | 'limits'
> {
  session: SessionView | null;
  notifications: Notification[];
  policy: PolicyView | null;
  limits: SessionLimits | null;
}
