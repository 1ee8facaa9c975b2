import type { z } from 'zod';
import type { InBoxTool } from '../kit/tool';
import type { DesktopPort, PngImage, Point, ScreenSize } from './port';

/** What the acting tools answer (the spec: "Tools that act … return the text OK"). */
export const OK = 'OK';

/** Text, a PNG (sent as MCP image content) or an object (sent as JSON text). */
export type DesktopResult = typeof OK | PngImage | Point;

/** A desktop tool: answered inside the box, against the box's display. */
export type DesktopTool<Shape extends z.ZodRawShape> = InBoxTool<Shape, DesktopPort, DesktopResult>;

/**
 * Each tool file exports one of these: its definition for a given screen, because the
 * coordinate bounds and the screenshot's description depend on the screen the box has.
 */
export type DesktopToolFactory = (screen: ScreenSize) => DesktopTool<z.ZodRawShape>;

/** Lets a tool file write `handle` with its arguments typed from its own `input`. */
export function defineDesktopTool<Shape extends z.ZodRawShape>(
  tool: DesktopTool<Shape>,
): DesktopTool<Shape> {
  return tool;
}

/** Read-only tools (they look, they do not touch). */
export const LOOKS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
/**
 * Tools that act: they change what is on screen, and repeating one (a click, a key) does it
 * again. Not destructive by themselves, but a click can press any button, so clients that
 * ask before destructive tools should: destructiveHint stays true.
 */
export const ACTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false };
/** Pointer moves: repeating one changes nothing more. */
export const MOVES = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
