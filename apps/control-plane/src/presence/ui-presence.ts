import { Injectable } from '@nestjs/common';
import type { UiServerEvents } from '@sessionboxer/contracts';
import type { WebSocket } from 'ws';
import { sendFrame } from './ui-frames';

interface Presence {
  sessionId: string | null;
  typing: boolean;
}

/**
 * Which session each person's browser is looking at, and whether they are typing, as the web
 * UI reports it over its socket. An agent's ui_open is shown only to browsers on its own
 * session whose person is not typing, so it can never pull anyone away or interrupt them.
 */
@Injectable()
export class UiPresence {
  private readonly clients = new Map<WebSocket, Presence>();

  join(client: WebSocket): void {
    this.clients.set(client, { sessionId: null, typing: false });
  }

  /** Signed-in browsers connected now: the approvers who could answer a card at once. */
  connected(): number {
    return this.clients.size;
  }

  leave(client: WebSocket): void {
    this.clients.delete(client);
  }

  watch(client: WebSocket, sessionId: string | null): void {
    const p = this.clients.get(client);
    if (p) Object.assign(p, { sessionId, typing: false });
  }

  typing(client: WebSocket, typing: boolean): void {
    const p = this.clients.get(client);
    if (p) p.typing = typing;
  }

  /** Sends the frame to every browser on the session that is not typing; true if any got it. */
  showTo<E extends keyof UiServerEvents>(
    sessionId: string,
    event: E,
    data: UiServerEvents[E],
  ): boolean {
    let shown = false;
    for (const [client, p] of this.clients) {
      if (p.sessionId !== sessionId || p.typing) continue;
      if (sendFrame(client, event, data)) shown = true;
    }
    return shown;
  }

  /** Sends to every connected browser, whatever it shows (the SSH terminals' approval cards). */
  broadcastAll<E extends keyof UiServerEvents>(event: E, data: UiServerEvents[E]): void {
    for (const client of this.clients.keys()) sendFrame(client, event, data);
  }

  /** Sends to every browser on the session, typing or not (notifications for the bell). */
  broadcast<E extends keyof UiServerEvents>(
    sessionId: string,
    event: E,
    data: UiServerEvents[E],
  ): void {
    for (const [client, p] of this.clients) {
      if (p.sessionId === sessionId) sendFrame(client, event, data);
    }
  }
}
