import type { IncomingHttpHeaders } from 'node:http';
import { Injectable, Logger } from '@nestjs/common';
import type {
  SessionTerminalInputFrame,
  SessionTerminalResizeFrame,
  UiClientEvents,
} from '@sessionboxer/contracts';
import { ErrorCode } from '@sessionboxer/domain';
import { TERMINAL_INPUT_MAX, TERMINAL_SIZE } from '@sessionboxer/mcp-adapters';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import { AuthService } from '../auth';
import { TerminalKeys } from '../boxes';
import { toErrorAnswer } from '../errors/error-answer';
import { errorData, sendFrame } from '../presence';

const id = z.string().min(1).max(100);
const inputFrame: z.ZodType<SessionTerminalInputFrame> = z
  .object({
    sessionId: z.string().uuid(),
    terminalId: id,
    data: z.string().min(1).max(TERMINAL_INPUT_MAX),
  })
  .strict();
const resizeFrame: z.ZodType<SessionTerminalResizeFrame> = z
  .object({
    sessionId: z.string().uuid(),
    terminalId: id,
    cols: z.number().int().min(TERMINAL_SIZE.cols.min).max(TERMINAL_SIZE.cols.max),
    rows: z.number().int().min(TERMINAL_SIZE.rows.min).max(TERMINAL_SIZE.rows.max),
  })
  .strict();

type KeyEvent = 'session.terminal.input' | 'session.terminal.resize';

const NEEDS: Record<KeyEvent, string> = {
  'session.terminal.input': `{ sessionId: uuid, terminalId, data: 1–${TERMINAL_INPUT_MAX} characters }`,
  'session.terminal.resize': `{ sessionId: uuid, terminalId, cols: ${TERMINAL_SIZE.cols.min}–${TERMINAL_SIZE.cols.max}, rows: ${TERMINAL_SIZE.rows.min}–${TERMINAL_SIZE.rows.max} }`,
};

interface Client {
  /** The person signed in on this socket: the one who types, whatever a frame says. */
  person: Promise<string | null>;
  /** The frames of this socket are handled one after the other, so keystrokes keep order. */
  queue: Promise<void>;
}

/**
 * Keystrokes and pane sizes a browser sends for a session's box Terminals. The person is the
 * socket's sign-in, never a frame's field (UiSignIns closes the socket when that sign-in
 * ends); a refused frame is answered with an `error` frame naming it and the Terminal.
 */
@Injectable()
export class BoxTerminalKeys {
  private readonly logger = new Logger('BoxTerminalKeys');
  private readonly clients = new Map<WebSocket, Client>();

  constructor(
    private readonly auth: AuthService,
    private readonly keys: TerminalKeys,
  ) {}

  join(client: WebSocket, headers: IncomingHttpHeaders): void {
    const person = this.auth.identify(headers).catch(() => null);
    this.clients.set(client, { person, queue: Promise.resolve() });
  }

  leave(client: WebSocket): void {
    this.clients.delete(client);
  }

  handle(client: WebSocket, event: KeyEvent, data: unknown): void {
    const c = this.clients.get(client);
    if (!c) return;
    const frame = (event === 'session.terminal.input' ? inputFrame : resizeFrame).safeParse(data);
    if (!frame.success) {
      const field = frame.error.issues[0]?.path.join('.') || 'data';
      const message = `${event} needs ${NEEDS[event]} (${field}: ${frame.error.issues[0]?.message ?? 'invalid'})`;
      this.refuse(client, event, undefined, ErrorCode.ValidationFailed, message, data);
      return;
    }
    c.queue = c.queue.then(() => this.apply(client, c, event, frame.data));
  }

  private async apply(
    client: WebSocket,
    c: Client,
    event: KeyEvent,
    frame: UiClientEvents[KeyEvent],
  ): Promise<void> {
    try {
      const username = await c.person;
      if (username === null) {
        this.refuse(
          client,
          event,
          frame,
          ErrorCode.Unauthenticated,
          'sign in to type into a Terminal',
        );
        return;
      }
      if ('data' in frame) {
        const person = { kind: 'person', id: username } as const;
        await this.keys.input(frame.sessionId, frame.terminalId, frame.data, person);
      } else this.keys.resize(frame.sessionId, frame.terminalId, frame.cols, frame.rows);
    } catch (e) {
      const { code, message } = toErrorAnswer(e, this.logger);
      this.refuse(client, event, frame, code, message);
    }
  }

  private refuse(
    client: WebSocket,
    event: KeyEvent,
    frame: { terminalId: string } | undefined,
    code: string,
    message: string,
    raw?: unknown,
  ): void {
    const named = frame?.terminalId ?? terminalIdOf(raw);
    const data = { ...errorData(code, message), frame: event };
    sendFrame(client, 'error', named === undefined ? data : { ...data, terminalId: named });
  }
}

/** The Terminal a malformed frame named, when it named one readably. */
function terminalIdOf(raw: unknown): string | undefined {
  const parsed = z.object({ terminalId: id }).safeParse(raw);
  return parsed.success ? parsed.data.terminalId : undefined;
}
