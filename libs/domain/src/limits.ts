/**
 * The limits and enums that the edges check before a decider does: the tools' zod schemas
 * (libs/mcp-adapters), the HTTP DTOs (class-validator) and the web UI's forms. Each is defined
 * here once and the aggregates' own validation uses the same constant, so no edge accepts what
 * the domain refuses, nor refuses what it accepts.
 *
 * This file imports nothing, on purpose: the web UI imports it (`@sessionboxer/domain/limits`),
 * so its bundle takes these values and nothing else of the domain. Only plain values and their
 * types belong here; a limit that only one aggregate checks stays in its validation file.
 */

/**
 * The agent programs a conversation can run with, which are also the providers a session,
 * the settings' default and a schedule's new sessions may name. `scripted` is Sessionboxer's
 * own scripted harness: it plays a script of messages and MCP tool calls, no model behind it.
 */
export type HarnessName = 'claude-code' | 'opencode' | 'scripted';

/** A tuple (not just a list), so zod's `enum` and an exhaustive label map can take it as is. */
export const HARNESS_NAMES = ['claude-code', 'opencode', 'scripted'] as const satisfies readonly [
  HarnessName,
  ...HarnessName[],
];

/** Where a session's box runs. */
export type SessionEnvironment = 'docker-linux' | 'qemu-windows' | 'qemu-macos';

export const SESSION_ENVIRONMENTS = [
  'docker-linux',
  'qemu-windows',
  'qemu-macos',
] as const satisfies readonly [SessionEnvironment, ...SessionEnvironment[]];

/** An id (a stream's, a document's, one a tool returned), in characters, taken as given. */
export const ID_MAX_LENGTH = 200;

/** A session's title, in characters (code points): create, rename, fork, a schedule's action. */
export const TITLE_MAX_LENGTH = 200;

/** Why a session was stopped. */
export const STOP_REASON_MAX_LENGTH = 500;
/** The longest reason a person gives with an approval's answer (one line). */
export const APPROVAL_REASON_MAX_LENGTH = 500;

/** A model name as a harness's `--model` takes it (`MODEL_NAME` is the whole pattern). */
export const MODEL_NAME_MAX_LENGTH = 200;

/** The most alive agent-created sessions the settings may allow on one control plane. */
export const GLOBAL_CAP_MAX = 1000;

/**
 * A repository's name in Global settings, which is also its folder under /workspace: letters,
 * digits, `_`, `.` and `-`, not starting with `.` or `-` (no `.sessionboxer`, no option).
 */
export const REPO_NAME_MAX_LENGTH = 100;
export const REPO_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/** A repository's clone URL (http or https), in characters. */
export const CLONE_URL_MAX_LENGTH = 2000;

/** A git branch name (a repository's default branch), in characters. */
export const BRANCH_NAME_MAX_LENGTH = 200;

/** The most repositories Global settings may list. */
export const REPOSITORIES_MAX = 100;

/** The most repositories one session may be created with. */
export const SESSION_REPOS_MAX = 20;

/** One egress allow-list entry, `host:port` or `*.suffix:port`, in characters. */
export const EGRESS_PATTERN_MAX_LENGTH = 260;

/** The most entries an egress allow list (global, or one session's) may hold. */
export const EGRESS_ALLOW_LIST_MAX = 500;

/** Settings → GitHub: how often pull requests are polled without webhooks, in seconds. */
export const POLL_SECONDS_MIN = 10;
export const POLL_SECONDS_MAX = 3600;

/** Settings → Git identity's email (the commits agents make). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An MCP registry server's name, and its env's variable names. */
export const MCP_SERVER_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** The built-in servers every agent gets; an entry of the same name would shadow one. */
export const RESERVED_MCP_NAMES: readonly string[] = ['desktop', 'sessionboxer'];

/**
 * What is wrong with a session title, in the decider's words (validTitle), or null: trimmed,
 * not empty, at most TITLE_MAX_LENGTH characters (code points), no control characters. Here
 * so the web UI's rename checks the same rule before sending.
 */
export function titleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (trimmed.length === 0) return 'title must not be empty';
  const length = [...trimmed].length;
  if (length > TITLE_MAX_LENGTH) {
    return `title must be at most ${TITLE_MAX_LENGTH} characters (it has ${length})`;
  }
  if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(trimmed)) {
    return 'title must not contain control characters such as newlines or tabs';
  }
  return null;
}
