import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCError,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';

/** Past this many waiting notifications, the oldest go (they are hints; reads are the truth). */
export const OUTBOX_MAX = 500;
/** A request the server has not answered by then is answered with an error. */
export const RELAY_REQUEST_TIMEOUT_MS = 45_000;

type Id = string | number;

function errorAnswer(id: Id, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code: -32603, message } };
}

/**
 * The server side of one relayed MCP connection, in this process: the box's relay hands it one
 * client message at a time (`deliver`), and gets back the server's answer to it plus whatever
 * the server sent on its own since the last delivery (notifications), in order.
 */
export class RelayTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly waiting = new Map<Id, (answer: JSONRPCMessage) => void>();
  private outbox: JSONRPCMessage[] = [];
  private closed = false;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const id = isJSONRPCResponse(message) || isJSONRPCError(message) ? message.id : undefined;
    if (id !== undefined) {
      const answer = this.waiting.get(id);
      if (answer) {
        this.waiting.delete(id);
        answer(message);
        return Promise.resolve();
      }
    }
    this.outbox.push(message);
    if (this.outbox.length > OUTBOX_MAX) this.outbox = this.outbox.slice(-OUTBOX_MAX);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    for (const [id, answer] of this.waiting) answer(errorAnswer(id, 'the connection closed'));
    this.waiting.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  /** Hands the server one message; a request's promise waits for its answer. */
  async deliver(message: JSONRPCMessage): Promise<JSONRPCMessage[]> {
    if (this.closed) throw new Error('the connection is closed');
    if (!isJSONRPCRequest(message)) {
      this.onmessage?.(message);
      return this.drain();
    }
    const { id } = message;
    if (this.waiting.has(id)) return [errorAnswer(id, `request id ${id} is already in flight`)];
    const answered = new Promise<JSONRPCMessage>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(errorAnswer(id, `no answer within ${RELAY_REQUEST_TIMEOUT_MS / 1000} s`));
      }, RELAY_REQUEST_TIMEOUT_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
    this.onmessage?.(message);
    const answer = await answered;
    return [...this.drain(), answer];
  }

  /** What the server sent on its own since the last call. */
  drain(): JSONRPCMessage[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }
}
