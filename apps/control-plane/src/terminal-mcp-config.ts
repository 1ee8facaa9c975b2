/** The terminal MCP server's part of the configuration (docs/TERMINALS.md). */
export interface TerminalMcpConfig {
  /**
   * SESSIONBOXER_TERMINAL_MCP_PORT: the terminal MCP server's own listener, on the control
   * plane's host (default 8091, or a free one when the control plane's own port is 0, as in
   * tests; 0 picks a free one; `off` runs none).
   */
  port: number | null;
  /**
   * SESSIONBOXER_TERMINAL_MCP_LEASE_MS: how long an MCP connection without its notification
   * stream (the GET /mcp SSE) and without a request keeps its terminals (default 30,000).
   */
  leaseMs: number;
}

export const TERMINAL_MCP_DEFAULT_PORT = 8091;

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new Error(`${name} must be an integer from 0 to ${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Throws an Error naming the variable and what it must be. */
export function terminalMcpConfig(env: NodeJS.ProcessEnv): TerminalMcpConfig {
  const off = env.SESSIONBOXER_TERMINAL_MCP_PORT?.trim() === 'off';
  const fallback = env.SESSIONBOXER_PORT?.trim() === '0' ? 0 : TERMINAL_MCP_DEFAULT_PORT;
  return {
    port: off ? null : whole(env, 'SESSIONBOXER_TERMINAL_MCP_PORT', fallback, 65535),
    leaseMs: whole(env, 'SESSIONBOXER_TERMINAL_MCP_LEASE_MS', 30_000, 3_600_000),
  };
}
