import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScreenSize } from '@sessionboxer/mcp-adapters/desktop';
import {
  badArgument,
  DESKTOP_DEFAULT_RESOLUTION,
  DESKTOP_MAX_SIZE,
  DESKTOP_MIN_SIZE,
  type SandboxDesktopState,
} from '@sessionboxer/domain/sandbox';
import { DESKTOP_BUS, DEVTOOLS_PORT } from './desktop-launch';

/** sandbox_desktop's answer, the spec's fields. */
export interface DesktopView {
  running: boolean;
  size?: string;
  display?: string;
  vnc_port?: number | null;
  devtools?: string;
  browser?: string | null;
  watch?: string;
}

export function desktopView(
  desktop: SandboxDesktopState,
  browserAlive: boolean,
  watch: string,
): DesktopView {
  return {
    running: true,
    size: `${desktop.width}x${desktop.height}`,
    display: desktop.display,
    // No VNC port: the live view runs an x11vnc per viewer on a socket pair (sandboxes/watch/).
    vnc_port: null,
    devtools: `http://127.0.0.1:${DEVTOOLS_PORT}`,
    browser: browserAlive ? 'chromium' : null,
    watch,
  };
}

/** "1920x1080" → its size, within what Xvfb is given here. */
export function parseResolution(raw: string | undefined): ScreenSize {
  const text = raw ?? DESKTOP_DEFAULT_RESOLUTION;
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(text);
  const width = m ? Number(m[1]) : NaN;
  const height = m ? Number(m[2]) : NaN;
  const { width: w0, height: h0 } = DESKTOP_MIN_SIZE;
  const { width: w1, height: h1 } = DESKTOP_MAX_SIZE;
  if (!(width >= w0 && width <= w1 && height >= h0 && height <= h1)) {
    throw badArgument(
      'resolution',
      `resolution must be WIDTHxHEIGHT, such as 1920x1080, from ${w0}x${h0} to ${w1}x${h1}`,
    );
  }
  return { width, height };
}

/**
 * The display a sandbox's running desktop is on, as a file of its run folder (the host
 * side), so sandbox_exec adds DISPLAY while it runs, in any instance, without a read model.
 */
const DISPLAY_FILE = 'desktop.display';

export function writeDisplayFile(runDir: string, display: string | null): void {
  const file = path.join(runDir, DISPLAY_FILE);
  if (display === null) fs.rmSync(file, { force: true });
  else fs.writeFileSync(file, display);
}

/**
 * `{ DISPLAY, DBUS_SESSION_BUS_ADDRESS }` while the sandbox's desktop runs, else nothing: on
 * the desktop's bus, GTK programs register with its AT-SPI bus (atspi/).
 */
export function desktopEnv(runDir: string): Record<string, string> {
  let text: string;
  try {
    text = fs.readFileSync(path.join(runDir, DISPLAY_FILE), 'utf8');
  } catch {
    return {};
  }
  return /^:\d{1,4}$/.test(text) ? { DISPLAY: text, DBUS_SESSION_BUS_ADDRESS: DESKTOP_BUS } : {};
}
