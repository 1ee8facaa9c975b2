import type { CallFrame, CallResult } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { BridgeError } from './errors';

export interface CallRegistryOptions {
  /** How long a call may wait for a connection (from its creation or from a drop). */
  waitMs: number;
  /** How long the control plane has to answer once the call was first sent. */
  answerTimeoutMs: number;
  /** Names the gateway in error messages. */
  gatewayName: string;
  isConnected(): boolean;
  /** Puts the frame on the current connection; false when there is none. */
  send(frame: CallFrame): boolean;
}

/** Beyond this many unanswered calls the box is misbehaving; refuse rather than hoard memory. */
const MAX_PENDING = 1_000;
/** Answers kept so that a caller retrying with its own callId gets the same answer. */
const MAX_REMEMBERED = 500;

interface Pending {
  frame: CallFrame;
  promise: Promise<CallResult>;
  resolve(result: CallResult): void;
  reject(error: BridgeError): void;
  /** Put on a connection at least once, so it may have taken effect even if unanswered. */
  everSent: boolean;
  waitTimer: NodeJS.Timeout | null;
  answerTimer: NodeJS.Timeout | null;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * The calls between an HTTP request and the control plane's `result` frame, keyed by callId.
 * A call keeps its callId across reconnects and is resent on every new connection until it is
 * answered, so the control plane (which dedups by callId) applies it once; the first answer
 * wins and later ones are ignored.
 */
export class CallRegistry {
  private readonly pending = new Map<string, Pending>();
  private readonly answered = new Map<string, { frame: CallFrame; result: CallResult }>();

  constructor(private readonly opts: CallRegistryOptions) {}

  get size(): number {
    return this.pending.size;
  }

  call(frame: CallFrame): Promise<CallResult> {
    const known = this.pending.get(frame.callId) ?? this.answered.get(frame.callId);
    if (known) return this.join(known, frame);
    if (this.pending.size >= MAX_PENDING) {
      const message = `${MAX_PENDING} calls are already waiting for the control plane; retry later`;
      return Promise.reject(new BridgeError('UNAVAILABLE', message, 503));
    }
    const entry = this.create(frame);
    if (this.opts.isConnected()) this.transmit(entry);
    else this.startWaiting(entry);
    return entry.promise;
  }

  /** A new connection: every unanswered call goes (again) with its callId. */
  connected(): void {
    for (const entry of this.pending.values()) this.transmit(entry);
  }

  /** The connection dropped: unanswered calls wait for the next one, but not for ever. */
  disconnected(): void {
    for (const entry of this.pending.values()) this.startWaiting(entry);
  }

  /** Returns false for an answer nobody waits for (a duplicate, or one that came too late). */
  settle(result: CallResult): boolean {
    const entry = this.pending.get(result.callId);
    if (!entry) return false;
    this.forget(entry);
    this.answered.set(result.callId, { frame: entry.frame, result });
    if (this.answered.size > MAX_REMEMBERED) {
      this.answered.delete(this.answered.keys().next().value as string);
    }
    entry.resolve(result);
    return true;
  }

  failAll(message: string): void {
    for (const entry of [...this.pending.values()]) {
      this.fail(entry, new BridgeError('UNAVAILABLE', message, 503));
    }
  }

  private join(
    known: Pending | { frame: CallFrame; result: CallResult },
    frame: CallFrame,
  ): Promise<CallResult> {
    if (known.frame.route !== frame.route || known.frame.tool !== frame.tool) {
      const message = `callId ${frame.callId} was already used for ${known.frame.route}/${known.frame.tool}`;
      return Promise.reject(new BridgeError('CONFLICT', message, 409));
    }
    return 'promise' in known ? known.promise : Promise.resolve(known.result);
  }

  private create(frame: CallFrame): Pending {
    let resolve!: (result: CallResult) => void;
    let reject!: (error: BridgeError) => void;
    const promise = new Promise<CallResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const entry: Pending = {
      frame,
      promise,
      resolve,
      reject,
      everSent: false,
      waitTimer: null,
      answerTimer: null,
    };
    this.pending.set(frame.callId, entry);
    return entry;
  }

  private transmit(entry: Pending): void {
    if (!this.opts.send(entry.frame)) {
      this.startWaiting(entry);
      return;
    }
    if (entry.waitTimer) clearTimeout(entry.waitTimer);
    entry.waitTimer = null;
    entry.everSent = true;
    // Measured from the first send: resends after a reconnect do not extend the bound.
    entry.answerTimer ??= setTimeout(() => {
      const message = `the control plane did not answer ${entry.frame.tool} within ${seconds(this.opts.answerTimeoutMs)}`;
      this.fail(entry, new BridgeError('UNAVAILABLE', message, 504));
    }, this.opts.answerTimeoutMs).unref();
  }

  private startWaiting(entry: Pending): void {
    if (entry.waitTimer) return;
    entry.waitTimer = setTimeout(
      () => this.fail(entry, this.unreachable(entry)),
      this.opts.waitMs,
    ).unref();
  }

  private unreachable(entry: Pending): BridgeError {
    const base =
      `the Sessionboxer control plane is unreachable from the box: no connection to its ` +
      `gateway (${this.opts.gatewayName}) for ${seconds(this.opts.waitMs)}`;
    const fate = entry.everSent
      ? `the connection dropped after ${entry.frame.tool} was sent, so it may or may not have taken effect`
      : `${entry.frame.tool} was not delivered`;
    return new BridgeError('UNAVAILABLE', `${base}; ${fate}`, 503);
  }

  private fail(entry: Pending, error: BridgeError): void {
    if (this.pending.get(entry.frame.callId) !== entry) return;
    this.forget(entry);
    entry.reject(error);
  }

  private forget(entry: Pending): void {
    if (entry.waitTimer) clearTimeout(entry.waitTimer);
    if (entry.answerTimer) clearTimeout(entry.answerTimer);
    this.pending.delete(entry.frame.callId);
  }
}
