import type { z } from 'zod';
import type { InBoxTool } from '../kit/tool';
import { cursorPositionTool } from './cursor_position';
import type { DesktopTool } from './desktop-tool';
import { doubleClickTool } from './double_click';
import { holdKeyTool } from './hold_key';
import { keyTool } from './key';
import { leftClickTool } from './left_click';
import { leftClickDragTool } from './left_click_drag';
import { leftMouseDownTool } from './left_mouse_down';
import { leftMouseUpTool } from './left_mouse_up';
import { middleClickTool } from './middle_click';
import { mouseMoveTool } from './mouse_move';
import type { DesktopPort, ScreenSize } from './port';
import { recordingTools, type RecordingPort } from './recording';
import { rightClickTool } from './right_click';
import { screenshotTool } from './screenshot';
import { scrollTool } from './scroll';
import { tripleClickTool } from './triple_click';
import { typeTool } from './type';
import { waitTool } from './wait';
import { zoomTool } from './zoom';

/** The desktop tools for `screen`, in the order of the spec. */
export function desktopTools(screen: ScreenSize): DesktopTool<z.ZodRawShape>[] {
  return [
    screenshotTool(screen),
    zoomTool(screen),
    cursorPositionTool(),
    mouseMoveTool(screen),
    leftClickTool(screen),
    rightClickTool(screen),
    middleClickTool(screen),
    doubleClickTool(screen),
    tripleClickTool(screen),
    leftClickDragTool(screen),
    leftMouseDownTool(screen),
    leftMouseUpTool(screen),
    typeTool(),
    keyTool(),
    holdKeyTool(),
    scrollTool(screen),
    waitTool(),
  ];
}

/** The port every tool of the desktop server runs against: the display and the recorder. */
export type DesktopServerPort = DesktopPort & RecordingPort;
/* eslint-disable @typescript-eslint/no-explicit-any -- a registry holds tools of every shape */
/** Any tool of the desktop server, as its one registration loop holds them. */
export type AnyDesktopServerTool = InBoxTool<z.ZodRawShape, DesktopServerPort, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Every tool of the desktop MCP server: the desktop tools for `screen`, then the recording
 * tools. Names are unique (checked here, so a clash fails at server start, not in a call).
 */
export function desktopServerTools(screen: ScreenSize): readonly AnyDesktopServerTool[] {
  const tools: AnyDesktopServerTool[] = [...desktopTools(screen), ...recordingTools];
  const names = new Set(tools.map((t) => t.name));
  if (names.size !== tools.length) throw new Error('two desktop server tools share a name');
  return tools;
}
