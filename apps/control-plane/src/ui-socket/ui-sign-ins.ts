import type { IncomingHttpHeaders } from 'node:http';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { AuthService } from '../auth';

/** How often every open socket's sign-in is checked again (idle expiry, a CLI password). */
export const RECHECK_MS = 30_000;
/** The close code a browser gets when its sign-in ended: it shows the sign-in page. */
export const SIGNED_OUT = 4401;

/**
 * A UI socket lives only as long as the sign-in it was opened with, and its browser: closed at
 * once when that sign-in is signed out, within RECHECK_MS when it expired or a new password
 * ended it, and dropped when it did not answer the previous round's ping (a half-open one).
 */
@Injectable()
export class UiSignIns implements OnModuleDestroy {
  private readonly clients = new Map<WebSocket, IncomingHttpHeaders>();
  private readonly unanswered = new Set<WebSocket>();
  private readonly timer: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(private readonly auth: AuthService) {
    this.timer = setInterval(() => this.sweep(), RECHECK_MS).unref();
    this.unsubscribe = auth.onSignOut(() => void this.recheck());
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.unsubscribe();
  }

  /** Keeps the handshake's headers (cookie or bearer token, origin) to check again later. */
  join(client: WebSocket, headers: IncomingHttpHeaders): void {
    const { cookie, authorization, origin, host } = headers;
    this.clients.set(client, { cookie, authorization, origin, host });
    client.on('pong', () => this.unanswered.delete(client));
  }

  leave(client: WebSocket): void {
    this.clients.delete(client);
    this.unanswered.delete(client);
  }

  /** One round: sign-ins checked again, silent browsers dropped, the others pinged. */
  sweep(): void {
    void this.recheck();
    for (const client of this.clients.keys()) {
      if (this.unanswered.has(client) || client.readyState !== 1) {
        this.leave(client);
        client.terminate();
        continue;
      }
      this.unanswered.add(client);
      client.ping();
    }
  }

  async recheck(): Promise<void> {
    for (const [client, headers] of [...this.clients]) {
      if ((await this.auth.identify(headers)) !== null) continue;
      if (!this.clients.delete(client)) continue;
      client.close(SIGNED_OUT, 'signed out');
    }
  }
}
