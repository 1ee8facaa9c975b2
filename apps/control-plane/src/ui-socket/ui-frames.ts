import type { WebSocket } from 'ws';

/** The text of one frame of the `/api/ui` socket: JSON `{event, data}`. */
export function frameText(event: string, data: unknown): string {
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

export function sendFrame(client: WebSocket, event: string, data: unknown): boolean {
  return sendText(client, frameText(event, data));
}

/** The `error` frame a browser gets for a frame the control plane could not take. */
export function errorData(code: string, message: string): { code: string; message: string } {
  return { code, message };
}
