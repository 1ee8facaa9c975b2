import {
  HARNESS_NAMES,
  ID_MAX_LENGTH,
  MODEL_NAME_MAX_LENGTH,
  OUTPUT_BATCH_MAX,
} from '@sessionboxer/domain';
import { z } from 'zod';

/**
 * Frames between a box's daemon and the control plane's gateway, over the box's own Unix
 * socket (the socket says which session is talking; no frame ever names its session).
 * Nest's ws adapter shape: `{ event, data }`.
 */

/** daemon → control plane: a tool call. `callId` is unique per call and kept across resends. */
export const callFrame = z.object({
  callId: z.string().min(8).max(100),
  /** `relay`: a message of an MCP connection to one of the registry's relayed servers. */
  route: z.enum(['sessionboxer', 'e2e', 'desktop', 'relay']),
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
  /** Agent turns whose harness still runs in the box. */
  turns: z.array(z.object({ conversationId: z.string(), turn: z.number().int() })).default([]),
});
export type HelloFrame = z.infer<typeof helloFrame>;

/** daemon → control plane: terminal lifecycle and output (output is retained in the box too). */
export const terminalOpenedFrame = z.object({
  terminalId: z.string(),
  command: z.array(z.string()),
  createdAt: z.string(),
});
export const terminalExitedFrame = z.object({ terminalId: z.string(), exitCode: z.number().int() });
/** A batch of a Terminal's output: base64 of its bytes from `offset` on (the session records it). */
export const terminalOutputFrame = z.object({
  terminalId: z.string(),
  offset: z.number().int().min(0),
  data: z
    .string()
    .min(1)
    .max(96 * 1024),
});

/**
 * control plane → daemon: run one turn of a conversation's agent. `env` holds the credentials
 * for this run only: the daemon puts them in the harness's environment and nowhere else.
 */
export const turnStartPush = z.object({
  conversationId: z.string().min(1).max(ID_MAX_LENGTH),
  turn: z.number().int().min(1),
  harness: z.enum(HARNESS_NAMES),
  prompt: z.string(),
  briefing: z.string().nullable(),
  model: z.string().min(1).max(MODEL_NAME_MAX_LENGTH),
  harnessSessionId: z.string().max(200).nullable(),
  env: z.record(z.string()),
});
export type TurnStartPush = z.infer<typeof turnStartPush>;

/** control plane → daemon: stop that turn's harness (its end is already recorded). */
export const turnInterruptPush = z.object({
  conversationId: z.string().min(1).max(ID_MAX_LENGTH),
  turn: z.number().int().min(1),
});

/**
 * daemon → control plane: what a turn's harness reported, in order. `fromIndex` numbers the
 * first output within the turn, so a batch resent after a reconnect is recorded once. The
 * outputs themselves are checked by the domain (RecordHarnessOutput).
 */
export const agentOutputFrame = z.object({
  conversationId: z.string().min(1).max(ID_MAX_LENGTH),
  turn: z.number().int().min(1),
  fromIndex: z.number().int().min(0),
  outputs: z.array(z.record(z.unknown())).max(OUTPUT_BATCH_MAX),
});
export type AgentOutputFrame = z.infer<typeof agentOutputFrame>;

/** control plane → daemon: that frame is recorded (or refused for good); don't send it again. */
export const agentAck = z.object({
  conversationId: z.string().min(1).max(ID_MAX_LENGTH),
  turn: z.number().int().min(1),
  fromIndex: z.number().int().min(0),
});

/**
 * control plane → daemon (`error`): a frame it did not take, and why; nothing of it was
 * recorded. `frame` names the refused frame's event and `ref` the ids that say which one it was
 * (an agent.output's conversationId, turn and fromIndex: refused for good, so the daemon stops
 * resending it, as after an `agent.ack`); a frame that could not be read has neither.
 */
export const frameError = z.object({
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
  frame: z.string().optional(),
  ref: z.record(z.unknown()).optional(),
});
export type FrameError = z.infer<typeof frameError>;

/**
 * control plane → daemon: the Global settings' MCP registry, which the daemon writes into the
 * workspace's .mcp.json (the harness reads it at each turn). A `relay` server runs in the box
 * as the daemon's relay (`relay-server.js <name>`), its messages going over the box's channel.
 */
export const mcpRegistryPush = z.object({
  servers: z
    .array(
      z.union([
        z.object({ name: z.string().min(1).max(64), relay: z.string().min(1).max(64) }).strict(),
        z
          .object({
            name: z.string().min(1).max(64),
            command: z.array(z.string()).min(1).max(100),
            env: z.record(z.string()),
          })
          .strict(),
      ]),
    )
    .max(50),
});
export type McpRegistryPush = z.infer<typeof mcpRegistryPush>;

/**
 * The `relay` call's arguments: one JSON-RPC message of the box-side connection `connection`
 * (one per relay process), `close: true` when that process ends, or neither: a keepalive
 * (RELAY_KEEPALIVE_MS), which also fetches waiting notifications. The answer is `{ messages }`:
 * the server's responses to it and any notifications waiting since the last.
 */
export const relayCallArgs = z
  .object({
    connection: z.string().min(8).max(100),
    message: z.record(z.unknown()).optional(),
    close: z.literal(true).optional(),
  })
  .strict()
  .refine((a) => a.message === undefined || a.close === undefined, {
    message: 'give message or close, not both',
  });
export type RelayCallArgs = z.infer<typeof relayCallArgs>;

/** How often a relay process says it is alive (a connection's lease is longer: 30 s by default). */
export const RELAY_KEEPALIVE_MS = 2_000;

/** The sizes a Terminal's PTY may take, and the most text one `terminal.input` carries. */
export const TERMINAL_SIZE = { cols: { min: 2, max: 500 }, rows: { min: 1, max: 200 } } as const;
export const TERMINAL_INPUT_MAX = 64 * 1024;

/** control plane → daemon pushes. */
export interface ServerPushes {
  /** The new content of /workspace/.sessionboxer/session.json. */
  session: Record<string, unknown>;
  /** Open a terminal (a real PTY in the box) running argv, or a login shell when absent. */
  'terminal.open': { terminalId: string; command: string[] | null };
  /** Keystrokes a person typed in the web UI's live pane, written to the Terminal's PTY. */
  'terminal.input': { terminalId: string; data: string };
  /** The live pane's size: the PTY is resized to it (TERMINAL_SIZE bounds both). */
  'terminal.resize': { terminalId: string; cols: number; rows: number };
  'turn.start': TurnStartPush;
  'turn.interrupt': z.infer<typeof turnInterruptPush>;
  'mcp.registry': McpRegistryPush;
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

/**
 * The box's edge: the one way out of a box. The daemon listens on `port` of the box's loopback
 * and pipes every connection, byte for byte, to `socket` (in the same folder as the gateway
 * socket), where the control plane's edge server decides what it may reach:
 * - proxy requests (`CONNECT host:port`, absolute-form `GET http://host/…`): the egress proxy,
 *   set in the box as HTTP_PROXY / HTTPS_PROXY;
 * - origin-form requests under a route prefix: relays that add what the box never holds
 *   (`/provider/anthropic/…`, `/provider/openai/…` add the provider's credential, `/git/<repo>/…`
 *   the forge token).
 */
export const BOX_EDGE = {
  port: 7001,
  url: 'http://127.0.0.1:7001',
  socket: '/run/sessionboxer/edge.sock',
  routes: {
    anthropic: '/provider/anthropic',
    openai: '/provider/openai',
    git: '/git',
  },
} as const;
