import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { BoxSockets } from './box-sockets';

interface Pending {
  /** The connection the request went out on: only it can answer. */
  client: WebSocket;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The answer a daemon sends to a request of ours (`terminal.answer`). */
export const daemonAnswer = z.object({
  requestId: z.string().min(1).max(100),
  ok: z.boolean(),
  result: z.unknown().optional(),
  error: z.object({ code: z.string().max(100), message: z.string().max(10_000) }).optional(),
});
export type DaemonAnswer = z.infer<typeof daemonAnswer>;

/** Talks to a box's daemon over its socket: pushes, and requests answered by `terminal.answer`. */
@Injectable()
export class DaemonChannel {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly sockets: BoxSockets) {}

  isConnected(sessionId: string): boolean {
    return this.sockets.clientOf(sessionId)?.readyState === 1;
  }

  /** The sessions whose daemon is connected now. */
  connected(): string[] {
    return this.sockets.sessions().filter((id) => this.isConnected(id));
  }

  /** Sends a frame if the daemon is connected; returns whether it was sent. */
  push(sessionId: string, event: string, data: unknown): boolean {
    const client = this.sockets.clientOf(sessionId);
    if (client?.readyState !== 1) return false;
    client.send(JSON.stringify({ event, data }));
    return true;
  }

  request<T>(sessionId: string, event: string, data: object, timeoutMs = 10_000): Promise<T> {
    const requestId = randomUUID();
    const client = this.sockets.clientOf(sessionId);
    if (!client || !this.push(sessionId, event, { ...data, requestId })) {
      return Promise.reject(
        new DomainError(ErrorCode.Unavailable, `the box of session ${sessionId} is not connected`),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(
          new DomainError(
            ErrorCode.Unavailable,
            `the box did not answer ${event} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.pending.set(requestId, { client, resolve, reject, timer });
    });
  }

  /**
   * An answer counts only from the connection the request went out on, once; false when no
   * request of that connection waits for it (answered, timed out, or never asked).
   */
  answer(client: WebSocket, answer: DaemonAnswer): boolean {
    const pending = this.pending.get(answer.requestId);
    if (pending?.client !== client) return false;
    this.pending.delete(answer.requestId);
    clearTimeout(pending.timer);
    if (answer.ok) pending.resolve(answer.result);
    else {
      const code = Object.values(ErrorCode).includes(answer.error?.code as ErrorCode)
        ? (answer.error?.code as ErrorCode)
        : ErrorCode.Unavailable;
      pending.reject(new DomainError(code, answer.error?.message ?? 'the box refused the request'));
    }
    return true;
  }

  rejectAll(): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new DomainError(ErrorCode.Unavailable, 'the control plane is shutting down'));
      this.pending.delete(id);
    }
  }
}
