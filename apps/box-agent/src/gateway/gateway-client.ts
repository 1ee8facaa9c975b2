import type { CallFrame, CallResult, HelloFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import type { Log } from '../log';
import { CallRegistry } from './call-registry';
import { GatewayConnection } from './connection';
import { callResult } from './frames';

export interface GatewayClientOptions {
  socketPath: string;
  path: string;
  callWaitMs: number;
  callTimeoutMs: number;
  /** Built at each connect, so it lists the terminals running then. */
  hello(): HelloFrame;
  /** Every frame except `result`, which the client matches to its call itself. */
  onServerFrame(event: string, data: unknown): void;
  /** After each hello on a new connection (to resend what was never acknowledged). */
  onConnected?(): void;
  log: Log;
}

/** Lifecycle frames kept while disconnected; beyond this the oldest are dropped. */
const MAX_OUTBOX = 1_000;

/**
 * The daemon's side of the bridge: tool calls with their answers, lifecycle frames that must
 * reach the control plane eventually, and answers to the control plane's own requests.
 */
export class GatewayClient {
  private readonly connection: GatewayConnection;
  private readonly calls: CallRegistry;
  private readonly outbox: Array<{ event: string; data: unknown }> = [];

  constructor(private readonly opts: GatewayClientOptions) {
    this.connection = new GatewayConnection({
      socketPath: opts.socketPath,
      path: opts.path,
      log: opts.log,
      events: {
        open: () => this.onOpen(),
        message: (event, data) => this.onMessage(event, data),
        close: () => this.calls.disconnected(),
      },
    });
    this.calls = new CallRegistry({
      waitMs: opts.callWaitMs,
      answerTimeoutMs: opts.callTimeoutMs,
      gatewayName: opts.socketPath,
      isConnected: () => this.connection.connected,
      send: (frame) => this.connection.send('call', frame),
    });
  }

  get connected(): boolean {
    return this.connection.connected;
  }

  start(): void {
    this.connection.start();
  }

  /** Resolves with the control plane's answer; rejects with a BridgeError when there is none. */
  call(frame: CallFrame): Promise<CallResult> {
    return this.calls.call(frame);
  }

  /** Sends now, or after the next hello when disconnected, in order. */
  deliver(event: string, data: unknown): void {
    if (this.outbox.length === 0 && this.connection.send(event, data)) return;
    this.outbox.push({ event, data });
    if (this.outbox.length > MAX_OUTBOX) {
      const dropped = this.outbox.shift();
      this.opts.log.warn(`outbox full while disconnected; dropped a ${dropped?.event} frame`);
    }
  }

  /** Sends on the current connection if there is one; false when there is none. */
  send(event: string, data: unknown): boolean {
    return this.connection.send(event, data);
  }

  /** For answers to the control plane's requests: useless on any other connection, so dropped. */
  reply(event: string, data: unknown): void {
    if (!this.connection.send(event, data)) {
      this.opts.log.warn(`dropped ${event}: the connection that asked is gone`);
    }
  }

  close(): void {
    this.calls.failAll('the box daemon is shutting down');
    this.connection.stop();
  }

  private onOpen(): void {
    this.connection.send('hello', this.opts.hello());
    while (this.outbox.length > 0) {
      const next = this.outbox[0];
      if (!this.connection.send(next.event, next.data)) return;
      this.outbox.shift();
    }
    this.opts.onConnected?.();
    this.calls.connected();
  }

  private onMessage(event: string, data: unknown): void {
    if (event !== 'result') {
      try {
        this.opts.onServerFrame(event, data);
      } catch (e) {
        // A bug in one handler must not take the bridge (and every later call) down with it.
        this.opts.log.error(
          `handling ${event} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
        );
      }
      return;
    }
    const parsed = callResult.safeParse(data);
    if (!parsed.success) {
      this.opts.log.warn(
        `ignored a malformed result frame: ${JSON.stringify(data)?.slice(0, 200)}`,
      );
      return;
    }
    // false for a duplicate or late answer: nobody waits for it any more, which is fine.
    this.calls.settle(parsed.data);
  }
}
