import { DomainError, ErrorCode } from '@sessionboxer/domain';

const B64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function refuse(field: string, message: string): never {
  throw new DomainError(ErrorCode.ValidationFailed, message, { field });
}

/** An endpoint to push to: https, or http://127.0.0.1 when the operator allows it (tests, dev). */
export function pushEndpoint(value: unknown, allowLocalHttp: boolean): string {
  if (typeof value !== 'string' || value.length > 2000)
    refuse('endpoint', 'endpoint must be a URL');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse('endpoint', 'endpoint must be a URL');
  }
  const local = allowLocalHttp && url.protocol === 'http:' && url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !local) refuse('endpoint', 'endpoint must be an https URL');
  return url.toString();
}

/** The body of POST /api/push/subscriptions: a PushSubscription's JSON. */
export function pushSubscription(body: unknown, allowLocalHttp: boolean) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const endpoint = pushEndpoint(b.endpoint, allowLocalHttp);
  const keys = (typeof b.keys === 'object' && b.keys !== null ? b.keys : {}) as Record<
    string,
    unknown
  >;
  for (const k of ['p256dh', 'auth'] as const) {
    const v = keys[k];
    if (typeof v !== 'string' || v.length > 200 || !B64URL.test(v)) {
      refuse(`keys.${k}`, `keys.${k} must be base64url`);
    }
  }
  return { endpoint, keys: { p256dh: keys.p256dh as string, auth: keys.auth as string } };
}
