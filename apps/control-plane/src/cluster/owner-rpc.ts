import { timingSafeEqual, createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@sessionboxer/domain';
import { InstanceRegistry } from './instance-registry';
import type { RemoteOwner } from './box-ownership';

export type RpcHandler = (...args: unknown[]) => Promise<unknown>;
/** The header that marks a request one instance sent another (never forwarded again). */
export const FORWARDED_HEADER = 'x-sessionboxer-forwarded-by';
const RPC_TIMEOUT_MS = 30_000;

/**
 * Box operations asked of the instance that owns the box: a stop on instance B freezes the box
 * instance A runs, a turn started on B is pushed by A to its daemon. Handlers register by name
 * (`box.freeze`, `turn.launch` …); a call is a POST to the owner's /internal/rpc with the
 * instances' shared bearer, its result or its DomainError coming back as they were.
 */
@Injectable()
export class OwnerRpc {
  private readonly handlers = new Map<string, RpcHandler>();

  constructor(private readonly registry: InstanceRegistry) {}

  handle(op: string, handler: RpcHandler): void {
    if (this.handlers.has(op)) throw new Error(`rpc ${op} registered twice`);
    this.handlers.set(op, handler);
  }

  async call<T>(owner: RemoteOwner, op: string, args: unknown[]): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${owner.url}/internal/rpc`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${this.registry.secret}`,
          [FORWARDED_HEADER]: this.registry.name,
        },
        body: JSON.stringify({ op, args }),
        signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
      });
    } catch (e) {
      throw new DomainError(
        ErrorCode.Unavailable,
        `instance "${owner.instance}", which runs this box, did not answer (${(e as Error).message})`,
      );
    }
    // Errors come back as the error filter writes them: { error: code, message, details }.
    const body = (await res.json().catch(() => ({}))) as {
      result?: T;
      error?: ErrorCode;
      message?: string;
      details?: Record<string, unknown>;
    };
    if (res.ok) return body.result as T;
    throw new DomainError(
      body.error ?? ErrorCode.Unavailable,
      body.message ?? `instance "${owner.instance}" answered ${op} with ${res.status}`,
      body.details,
    );
  }

  /** Whether a bearer is the instances' own. */
  trusted(authorization: string | undefined): boolean {
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    if (!bearer) return false;
    const a = createHash('sha256').update(bearer).digest();
    const b = createHash('sha256').update(this.registry.secret).digest();
    return timingSafeEqual(a, b);
  }

  async dispatch(op: unknown, args: unknown): Promise<unknown> {
    const handler = typeof op === 'string' ? this.handlers.get(op) : undefined;
    if (!handler || !Array.isArray(args)) {
      throw new DomainError(ErrorCode.ValidationFailed, `unknown rpc ${JSON.stringify(op)}`);
    }
    return handler(...(args as unknown[]));
  }
}
