import type { HarnessName, HarnessOutput } from '@sessionboxer/domain';
import type { MediaSink } from './saved-image';

/** One turn as the daemon is asked to run it (the `turn.start` frame, validated). */
export interface TurnSpec {
  /** The conversation's turn number, 1 for the first. */
  turn: number;
  harness: HarnessName;
  /** The person's (or agent's) prompt, as recorded. */
  prompt: string;
  /** Told to the agent before the prompt on the conversation's first turn, else null. */
  briefing: string | null;
  /** `default`: the harness's own default model. */
  model: string;
  /** The conversation id: Claude Code is started with it as its session id on turn 1. */
  conversationId: string;
  /** The harness's own id of the conversation from an earlier turn (to continue it), or null. */
  harnessSessionId: string | null;
  /** Credentials for this run only (ANTHROPIC_API_KEY, …): only in the child's environment. */
  env: Record<string, string>;
}

/** Where the turn runs, inside the box. */
export interface TurnContext {
  /** The workspace (/workspace in a box): the harness's working directory. */
  workspace: string;
  /** The workspace's .mcp.json, listing the box's desktop and sessionboxer servers. */
  mcpConfigPath: string;
  /** A private folder for this turn's files (a generated config, say); removed afterwards. */
  scratchDir: string;
  /** The node binary running the daemon (the scripted harness runs with it). */
  nodePath: string;
  /** The servers of .mcp.json (desktop, sessionboxer and any the workspace added). */
  mcpServers: Record<string, McpServerSpec>;
}

/** One stdio MCP server as .mcp.json lists it. */
export interface McpServerSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** How to start the harness's process: an argv (never a shell string), its environment and stdin. */
export interface LaunchPlan {
  argv: string[];
  /** Added to a clean base environment (PATH, HOME, LANG) of the daemon's choosing. */
  env: Record<string, string>;
  /** Written to the process's stdin, which is then closed; null closes it at once. */
  stdin: string | null;
  /** Files to write before the start (absolute paths inside scratchDir) and their content. */
  files?: Record<string, string>;
}

/**
 * Reads a harness's stdout line by line. `line` returns the outputs that line means (often
 * none); `end` is called once when the process has exited and returns what is still owed:
 * at least a turn_finished when the stream did not carry one (a crash, a kill).
 */
export interface StreamParser {
  line(text: string): HarnessOutput[];
  end(exit: { code: number | null; signal: string | null; stderr: string }): HarnessOutput[];
}

/**
 * A harness adapter: how one agent CLI is run for a turn and how its stream becomes the
 * conversation's events. One file per adapter (claude-code, opencode, scripted).
 */
export interface HarnessAdapter {
  readonly name: HarnessName;
  /**
   * The program to start: a name looked up on PATH, or an absolute path. When it cannot be
   * found the turn fails with the error event agent_unavailable, naming it.
   */
  executable(ctx: TurnContext): string;
  /**
   * Names of environment variables of which at least one must be set in `TurnSpec.env`, else
   * the turn fails with credentials_missing; empty when the harness needs none.
   */
  credentialEnv(turn: TurnSpec): readonly string[];
  plan(turn: TurnSpec, ctx: TurnContext, executablePath: string): LaunchPlan;
  /** A parser for one turn's stream; the images its tool results carry go to `media`. */
  parser(turn: TurnSpec, media: MediaSink): StreamParser;
}

/** The briefing then the prompt, as one text: what a harness that takes one prompt is given. */
export function promptWithBriefing(turn: TurnSpec): string {
  return turn.briefing === null ? turn.prompt : `${turn.briefing}\n\n---\n\n${turn.prompt}`;
}
