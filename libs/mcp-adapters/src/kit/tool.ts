import type { z } from 'zod';

/** MCP tool annotations (hints for clients; never a security boundary). */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One problem with one argument: its path (`terminal.command`, `itemIds[3]`) and why. */
export interface ArgIssue {
  field: string;
  message: string;
}

/** Where a tool is answered: the control plane (through the daemon), inside the box, Auto QA. */
export type ToolRoute = 'control-plane' | 'box' | 'e2e';

/**
 * One MCP tool as data. The same `input` schema validates the MCP call in the box, the frame
 * that carries it over the daemon's WebSocket, and (where one exists) the REST body. What
 * answers it is not here: on the control plane, the handler its owning module registers
 * (see handlers.ts); in the box, the box's own adapter (InBoxTool).
 */
export interface ToolDefinition<Shape extends z.ZodRawShape> {
  /** Exactly the spec's name; also the file name. */
  name: string;
  title: string;
  /** What the agent must know to use it well (the spec's words). */
  description: string;
  input: Shape;
  annotations: ToolAnnotations;
  route: ToolRoute;
  /**
   * The rules across fields that a raw zod shape cannot say (pr_attach takes one of two
   * forms; ui_open's terminal.command only goes with the terminal pane). `callParser` runs
   * them after the schema, in the box and again on the control plane.
   */
  check?(args: z.infer<z.ZodObject<Shape>>): ArgIssue[];
}

/**
 * A tool answered inside the box, against what only the box has (its display, its recorder,
 * the guide file it ships): the box's adapter is its `handle`, with the box's own port.
 */
export interface InBoxTool<
  Shape extends z.ZodRawShape,
  Port,
  Result,
> extends ToolDefinition<Shape> {
  route: 'box';
  handle(port: Port, args: z.infer<z.ZodObject<Shape>>): Promise<Result>;
}

/** A tool of any shape, as registries and parsers hold them. */
export type AnyTool = ToolDefinition<z.ZodRawShape>;
