import type { WebSocket } from 'ws';

/** The text of one frame of the `/api/ui` socket: JSON `{event, data}`. */
export function frameText(event: string, data: unknown): string {
  return JSON.stringify({ event, data });
}

/** Sends a frame's text if the browser's socket is open; returns whether it was sent. */
export function sendText(client: WebSocket, text: string): boolean {
  if (client.readyState !== 1) return false;
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
