import type { SessionEnvironment } from '../limits';

/** The `sessionboxer` MCP policy default: what an agent may do through it. */
export type AgentToolsPolicy = 'off' | 'session' | 'all';

export const AGENT_TOOLS_POLICIES: readonly AgentToolsPolicy[] = ['off', 'session', 'all'];

/** "When the Agent creates a Session": Ask me, or Do not ask. */
export type SessionCreationPolicy = 'ask' | 'dont_ask';

export const SESSION_CREATION_POLICIES: readonly SessionCreationPolicy[] = ['ask', 'dont_ask'];

/** Sessionboxer's own servers outside the box that the registry can give sessions' agents. */
export type RelayedMcpServer = 'terminals';

export const RELAYED_MCP_SERVERS: readonly RelayedMcpServer[] = ['terminals'];

/** A server the box runs itself: its command, in the box, with its environment. */
export interface StdioMcpServerEntry {
  name: string;
  command: string[];
  /** Often holds API keys: `publicSettings` removes every value. */
  env: Record<string, string>;
}

/**
 * One of Sessionboxer's own outside servers (`terminals`: the terminal MCP), relayed by the
 * box's daemon over the box's channel, with the session as its caller (its AgentSession).
 */
export interface RelayedMcpServerEntry {
  name: string;
  relay: RelayedMcpServer;
}

/** An MCP server every session's agent gets, next to the built-in desktop and sessionboxer. */
export type McpServerEntry = StdioMcpServerEntry | RelayedMcpServerEntry;

export function isRelayedEntry(entry: McpServerEntry): entry is RelayedMcpServerEntry {
  return 'relay' in entry;
}

/** Global settings. Stored whole in each SettingsUpdated, so a read needs only the last one. */
export interface Settings {
  defaults: { provider: string; model: string; environment: SessionEnvironment };
  sessionboxer: {
    agentTools: AgentToolsPolicy;
    sessionCreation: SessionCreationPolicy;
    /** At most this many alive agent-created sessions on the control plane. */
    globalCap: number;
  };
  gitIdentity: { name: string; email: string } | null;
  github: { token: string | null; webhookSecret: string | null; pollSeconds: number };
  mcpRegistry: McpServerEntry[];
  /** The environments a new session may use. */
  environments: SessionEnvironment[];
  /** Recordings' narration: always, never, or ask when it takes longer than N seconds. */
  desktop: { narration: NarrationMode; askAboveSeconds: number };
  /** Auto QA: open a verification run after each of a person's turns (off by default). */
  autoQa: { afterEachTurn: boolean };
  /** The terminal MCP's notifications: `output_available` is debounced by `debounceMs`. */
  notifications: { mcp: { debounceMs: number } };
}

export type NarrationMode = 'always' | 'ask' | 'never';

export const NARRATION_MODES: readonly NarrationMode[] = ['always', 'ask', 'never'];

/** What a control plane that was never configured uses. Treat it as read-only. */
export const defaultSettings: Settings = {
  defaults: { provider: 'claude-code', model: 'default', environment: 'docker-linux' },
  sessionboxer: { agentTools: 'session', sessionCreation: 'ask', globalCap: 10 },
  gitIdentity: null,
  github: { token: null, webhookSecret: null, pollSeconds: 60 },
  mcpRegistry: [],
  environments: ['docker-linux'],
  desktop: { narration: 'ask', askAboveSeconds: 5 },
  autoQa: { afterEachTurn: false },
  notifications: { mcp: { debounceMs: 100 } },
};

/** No "absent" state: a settings stream without events means the defaults. */
export interface SettingsState {
  settings: Settings;
}

export const initialSettingsState: SettingsState = { settings: defaultSettings };
