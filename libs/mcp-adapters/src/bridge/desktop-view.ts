import { z } from 'zod';

/**
 * The live desktop view: a person's browser watches (and, with control, drives) a box's X
 * display over VNC. The control plane listens on DESKTOP_VIEW.socket in the box's socket
 * folder; for each view it asks the daemon (`desktop.view`, answered by `terminal.answer`) to
 * start one `x11vnc -inetd` on its display and to connect that to the socket, the first line
 * being the view's id. Everything after that line is RFB, relayed byte for byte to the browser.
 */
export const DESKTOP_VIEW = {
  socket: '/run/sessionboxer/desktop-view.sock',
  /** The first line a connection sends: the view's id, a UUID; longer is refused. */
  headerMaxBytes: 100,
} as const;

export const desktopViewRequest = z.object({
  requestId: z.string().min(1).max(100),
  viewId: z.string().uuid(),
  /** false: x11vnc runs -viewonly, so this view's keys and clicks never reach the display. */
  control: z.boolean(),
});
export type DesktopViewRequest = z.infer<typeof desktopViewRequest>;

export const desktopViewClosePush = z.object({ viewId: z.string().uuid() });
