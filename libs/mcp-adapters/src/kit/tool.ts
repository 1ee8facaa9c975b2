import type { z } from 'zod';

/** MCP tool annotations (hints for clients; never a security boundary). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * One MCP tool as data. The same `input` schema validates the MCP call in the box, the frame
 * that carries it over the daemon's WebSocket, and (where one exists) the REST body.
 *
 * `handle` runs where the tool is answered: for `route: 'control-plane'` on the control plane,
 * with a port bound to the calling session (from its socket, never from the arguments).
 */
export interface ToolDefinition<Shape extends z.ZodRawShape, Port, Result> {
  /** Exactly the spec's name; also the file name. */
  name: string;
  title: string;
  /** What the agent must know to use it well (the spec's words). */
  description: string;
  input: Shape;
  annotations: ToolAnnotations;
  /** Where it is answered: the control plane (through the daemon), or inside the box. */
  route: 'control-plane' | 'box' | 'e2e';
  handle(port: Port, args: z.infer<z.ZodObject<Shape>>): Promise<Result>;
}

/** A tool of any shape, as registries hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool<Port> = ToolDefinition<z.ZodRawShape, Port, any>;
