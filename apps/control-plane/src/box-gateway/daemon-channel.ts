import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { BoxSockets } from './box-sockets';

interface Pending {
  sessionId: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The answer a daemon sends to a request of ours. */
export interface DaemonAnswer {
  requestId: string;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

/** Talks to a box's daemon over its socket: pushes, and requests answered by `terminal.answer`. */
@Injectable()
export class DaemonChannel {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly sockets: BoxSockets) {}

  isConnected(sessionId: string): boolean {
    return this.sockets.clientOf(sessionId)?.readyState === 1;
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
    if (!this.push(sessionId, event, { ...data, requestId })) {
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
      this.pending.set(requestId, {
        sessionId,
        resolve: resolve,
        reject,
        timer,
      });
    });
  }

  /** An answer counts only from the socket of the session the request went to. */
  answer(sessionId: string, answer: DaemonAnswer): void {
    const pending = this.pending.get(answer.requestId);
    if (pending?.sessionId !== sessionId) return;
    this.pending.delete(answer.requestId);
    clearTimeout(pending.timer);
    if (answer.ok) pending.resolve(answer.result);
    else {
      const code = Object.values(ErrorCode).includes(answer.error?.code as ErrorCode)
        ? (answer.error?.code as ErrorCode)
        : ErrorCode.Unavailable;
      pending.reject(new DomainError(code, answer.error?.message ?? 'the box refused the request'));
    }
  }

  rejectAll(): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new DomainError(ErrorCode.Unavailable, 'the control plane is shutting down'));
      this.pending.delete(id);
    }
  }
}
