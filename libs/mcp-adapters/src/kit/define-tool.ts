import type { z } from 'zod';
import type { InBoxTool, ToolDefinition, ToolRoute } from './tool';

/** Lets a tool file write `check` with its arguments typed from its own `input`. */
export function defineTool<Shape extends z.ZodRawShape, Route extends ToolRoute>(
  tool: ToolDefinition<Shape> & { route: Route },
): ToolDefinition<Shape> & { route: Route } {
  return tool;
}

/** The same for a tool answered inside the box, with its box-side `handle`. */
export function defineInBoxTool<Shape extends z.ZodRawShape, Port, Result>(
  tool: InBoxTool<Shape, Port, Result>,
): InBoxTool<Shape, Port, Result> {
  return tool;
}
