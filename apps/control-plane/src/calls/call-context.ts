import { deterministicUuid } from '@sessionboxer/event-store';
import type { CallContext, PolicyInForce } from '@sessionboxer/mcp-adapters';

/**
 * The context of ONE call of ONE session's agent: the session comes from the box's socket,
 * and every key and id a handler takes from it derives from the call id, so a call resent
 * after a reconnect (or a control-plane restart) takes effect once.
 */
export function callContext(
  sessionId: string,
  callId: string,
  policy: () => Promise<PolicyInForce>,
): CallContext {
  let step = 0;
  return {
    sessionId,
    callId,
    actor: { kind: 'agent', sessionId },
    policy: once(policy),
    key: `call/${callId}`,
    nextKey: () => `call/${callId}/${step++}`,
    idFor: (kind) => deterministicUuid(`${kind}/${sessionId}/${callId}`),
  };
}

/** `read`, called at most once. */
function once<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | null = null;
  return () => (value ??= read());
}
