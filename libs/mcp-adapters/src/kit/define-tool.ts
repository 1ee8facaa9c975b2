import type { z } from 'zod';
import type { ToolDefinition } from './tool';

/** One problem with one argument: its path (`terminal.command`, `itemIds[3]`) and why. */
export interface ArgIssue {
  field: string;
  message: string;
}

export type ToolRoute = ToolDefinition<z.ZodRawShape, unknown, unknown>['route'];

/**
 * A tool of the sessionboxer server: the contract's ToolDefinition plus `check`, the rules across
 * fields that a raw zod shape cannot say (pr_attach takes one of two forms; ui_open's
 * terminal.command only goes with the terminal pane). `parseCall` runs both, in the box and
 * again on the control plane, so a frame that skipped the box's check is still refused.
 */
export interface SessionboxerTool<Shape extends z.ZodRawShape, Port, Result> extends ToolDefinition<
  Shape,
  Port,
  Result
> {
  check?(args: z.infer<z.ZodObject<Shape>>): ArgIssue[];
}

/** Lets a tool file write `handle` with its arguments typed from its own `input`. */
export function defineTool<Shape extends z.ZodRawShape, Port, Result, Route extends ToolRoute>(
  tool: SessionboxerTool<Shape, Port, Result> & { route: Route },
): SessionboxerTool<Shape, Port, Result> & { route: Route } {
  return tool;
}
