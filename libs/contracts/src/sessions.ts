import type {
  BoxIsolation,
  BoxStatus,
  ForkOrigin,
  SessionEnvironment,
  SessionRef,
  SessionStatus,
} from '@sessionboxer/domain';

/** One row of the sidebar: a session as a person picking one sees it. */
export interface SidebarSession {
  id: string;
  title: string;
  status: SessionStatus;
  provider: string;
  model: string;
  environment: SessionEnvironment;
  createdAt: string;
  createdBy: SessionRef | null;
  forkedFrom: ForkOrigin | null;
  /** The session it nests under: the agent session that created it, else the one it forks. */
  parentId: string | null;
  /** Global settings' repositories it was created with, cloned at /workspace/<name>. */
  repos: string[];
  /** Its own branch in each of them (`sessionboxer/<short id>`), null without repos. */
  branch: string | null;
  /** Hidden from the sidebar unless "Show archived" is on; it works as before. */
  archived: boolean;
}

/** The session a row nests under, named by its title as it is now. */
export interface ChildOf {
  sessionId: string;
  title: string;
}

/** `GET /api/sidebar` (and the `sidebar` frame's `nodes`): a row with its children nested. */
export interface SidebarNode extends SidebarSession {
  childOf: ChildOf | null;
  children: SidebarNode[];
}

/** The session's box as whoami and the UI show it. */
export interface BoxDetails {
  status: BoxStatus;
  workspacePath: string;
  mcpJsonPath: string;
  isolation: BoxIsolation;
  /** Why it failed, while it is `failed`; null otherwise. */
  failure: string | null;
  /** When the box last changed status. */
  since: string;
}

/**
 * `GET /api/sessions/:id` (and the answer of create, rename, stop, resume and fork): its
 * sidebar row, the parent it nests under, and its box.
 */
export type SessionView = SidebarSession & {
  childOf: ChildOf | null;
  box: BoxDetails | null;
};
