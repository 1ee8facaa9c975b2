import type { UiErrorFrame, UiServerEvents } from '@sessionboxer/contracts';
import type { WebSocket } from 'ws';

/** The text of one frame of the `/api/ui` socket: JSON `{event, data}`, as the contracts type it. */
export function frameText<E extends keyof UiServerEvents>(
  event: E,
  data: UiServerEvents[E],
): string {
  return JSON.stringify({ event, data });
}

/**
 * What a browser may leave unread before it is dropped: a stuck or half-open one must not
 * hold the control plane's memory. It reconnects and watches from its last position.
 */
export const MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** Sends a frame's text if the browser's socket is open; returns whether it was sent. */
export function sendText(client: WebSocket, text: string): boolean {
  if (client.readyState !== 1) return false;
  if (client.bufferedAmount > MAX_UNREAD_BYTES) {
    client.terminate();
    return false;
  }
  client.send(text);
  return true;
}

export function sendFrame<E extends keyof UiServerEvents>(
  client: WebSocket,
  event: E,
  data: UiServerEvents[E],
): boolean {
  return sendText(client, frameText(event, data));
}

/** The `error` frame a browser gets for a frame the control plane could not take. */
export function errorData(code: string, message: string): UiErrorFrame {
  return { code, message };
}
