import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isDomainError } from '@sessionboxer/domain';
import { strictInput } from '@sessionboxer/mcp-adapters';
import {
  desktopServerTools,
  type AnyDesktopServerTool,
  type DesktopPort,
  type DesktopServerPort,
  type PngImage,
  type RecordingPort,
  type ScreenSize,
} from '@sessionboxer/mcp-adapters/desktop';
import { errorResult, jsonResult } from './tool-result';

export interface DesktopServerOptions {
  /** The box's display and its recorder, as one port: each tool uses its part. */
  port: DesktopServerPort;
  /** The configured screen: the coordinate bounds and the screenshot's description. */
  screen: ScreenSize;
  version: string;
}

function isPng(result: unknown): result is PngImage {
  return typeof result === 'object' && result !== null && Buffer.isBuffer((result as PngImage).png);
}

/** A tool's answer as MCP content: text as text, a PNG as an image, anything else as JSON. */
export function toContent(result: unknown): CallToolResult {
  if (typeof result === 'string') return { content: [{ type: 'text', text: result }] };
  if (isPng(result)) {
    const data = result.png.toString('base64');
    return { content: [{ type: 'image', data, mimeType: 'image/png' }] };
  }
  return jsonResult(result);
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * One call, with arguments the SDK already checked against the tool's strict schema (so a bad
 * argument never gets here and nothing reaches the display). A failure of the display or the
 * recorder becomes a tool error saying why; a refusal (a DomainError) keeps its own words.
 */
async function answer(
  tool: AnyDesktopServerTool,
  args: Record<string, unknown>,
  port: DesktopServerPort,
): Promise<CallToolResult> {
  try {
    return toContent(await tool.handle(port, args));
  } catch (e) {
    return errorResult(isDomainError(e) ? reason(e) : `${tool.name} failed: ${reason(e)}`);
  }
}

/**
 * The desktop MCP server of a box: every tool of the registry (the display's, then the
 * recorder's), registered in one loop. Schemas are strict (strictInput), so an argument a tool
 * does not take is refused by name rather than silently dropped.
 */
export function createDesktopServer(options: DesktopServerOptions): McpServer {
  const server = new McpServer({ name: 'desktop', version: options.version });
  for (const tool of desktopServerTools(options.screen)) {
    const config = {
      title: tool.title,
      description: tool.description,
      inputSchema: strictInput(tool.input),
      annotations: { title: tool.title, ...tool.annotations },
    };
    server.registerTool(tool.name, config, (args: Record<string, unknown>) =>
      answer(tool, args, options.port),
    );
  }
  return server;
}

/** The two ports as the one object the tools take (each method bound to its own owner). */
export function joinPorts(desktop: DesktopPort, recording: RecordingPort): DesktopServerPort {
  return {
    screen: desktop.screen,
    screenshot: () => desktop.screenshot(),
    zoom: (region) => desktop.zoom(region),
    cursor: () => desktop.cursor(),
    move: (to) => desktop.move(to),
    click: (button, count, at, modifiers) => desktop.click(button, count, at, modifiers),
    drag: (from, to) => desktop.drag(from, to),
    mouseDown: (at) => desktop.mouseDown(at),
    mouseUp: (at) => desktop.mouseUp(at),
    type: (text) => desktop.type(text),
    key: (presses) => desktop.key(presses),
    holdKey: (presses, seconds) => desktop.holdKey(presses, seconds),
    scroll: (direction, amount, at, modifiers) => desktop.scroll(direction, amount, at, modifiers),
    wait: (seconds) => desktop.wait(seconds),
    start: () => recording.start(),
    annotate: (text) => recording.annotate(text),
    stop: (narrate) => recording.stop(narrate),
    narrate: (path) => recording.narrate(path),
    status: () => recording.status(),
  };
}
