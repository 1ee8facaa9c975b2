import { z } from 'zod';

/**
 * Frames between a box's daemon and the control plane's gateway, over the box's own Unix
 * socket (the socket says which session is talking; no frame ever names its session).
 * Nest's ws adapter shape: `{ event, data }`.
 */

/** daemon → control plane: a tool call. `callId` is unique per call and kept across resends. */
export const callFrame = z.object({
  callId: z.string().min(8).max(100),
  route: z.enum(['sessionboxer', 'e2e', 'desktop']),
  tool: z.string().min(1).max(100),
  args: z.record(z.unknown()).default({}),
});
export type CallFrame = z.infer<typeof callFrame>;

/** control plane → daemon: the answer to one call (the ack of the `call` message). */
export type CallResult =
  | { callId: string; ok: true; result: unknown }
  | { callId: string; ok: false; error: { code: string; message: string } };

/** daemon → control plane, right after connecting. */
export const helloFrame = z.object({
  daemonVersion: z.string().max(50),
  /** Terminals the daemon still runs (after a control-plane restart). */
  terminals: z.array(z.string()).default([]),
});
export type HelloFrame = z.infer<typeof helloFrame>;

/** daemon → control plane: terminal lifecycle and output (output is retained in the box too). */
export const terminalOpenedFrame = z.object({
  terminalId: z.string(),
  command: z.array(z.string()),
  createdAt: z.string(),
});
export const terminalExitedFrame = z.object({ terminalId: z.string(), exitCode: z.number().int() });

/** control plane → daemon pushes. */
export interface ServerPushes {
  /** The new content of /workspace/.sessionboxer/session.json. */
  session: Record<string, unknown>;
  /** Open a terminal (a real PTY in the box) running argv, or a login shell when absent. */
  'terminal.open': { terminalId: string; command: string[] | null };
}

/** control plane → daemon requests answered with an ack. */
export interface ServerRequests {
  'terminal.list': Record<string, never>;
  'terminal.read': { terminalId: string; lines: number };
}

/** The paths the daemon and the MCP servers agree on inside a box. */
export const BOX_PATHS = {
  workspace: '/workspace',
  sessionJson: '/workspace/.sessionboxer/session.json',
  mcpJson: '/workspace/.mcp.json',
  guide: '/opt/sessionboxer/docs/GUIDE.md',
  gatewaySocket: '/run/sessionboxer/gateway.sock',
  daemonUrl: 'http://127.0.0.1:7000',
} as const;
