import { has, integer, invalid, isPlainObject, onlyKeys, text } from '../kernel/validation';
import { exactId } from '../kernel/validation';

/** An endpoint's name, in characters. */
export const SSH_ENDPOINT_NAME_MAX_LENGTH = 100;

/** A host name (RFC 1123 labels) or an IPv4 / bracket-free IPv6 literal, at most 253 characters. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

/** A login name as OpenSSH and useradd take it: no spaces, no `@`, no leading `-`. */
const USER = /^[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}$/;

/** OpenSSH's fingerprint form: `SHA256:` and the unpadded base64 of a SHA-256 digest. */
export const HOST_KEY_FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

export function validHost(value: unknown, field = 'host'): string {
  if (
    typeof value !== 'string' ||
    value.length > 253 ||
    !(HOST.test(value) || (value.includes(':') && IPV6.test(value)))
  ) {
    throw invalid(
      field,
      `${field} must be a host name or an IP address (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function validUser(value: unknown, field = 'user'): string {
  if (typeof value !== 'string' || !USER.test(value)) {
    throw invalid(
      field,
      `${field} must be a login name: 1–64 letters, digits, "_", "." or "-", not starting with "-" (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

export function validFingerprint(value: unknown, field = 'hostKeyFingerprint'): string {
  if (typeof value !== 'string' || !HOST_KEY_FINGERPRINT.test(value)) {
    throw invalid(
      field,
      `${field} must be an OpenSSH SHA-256 fingerprint such as SHA256:Ab3… (43 base64 characters), as \`ssh-keygen -lf\` prints it (got ${JSON.stringify(value)})`,
    );
  }
  return value;
}

/** The fields an endpoint has, each checked; `partial` for an update (at least one field). */
export interface SshEndpointFields {
  name: string;
  host: string;
  port: number;
  user: string;
  keyId: string | null;
  hostKeyFingerprint: string | null;
}

const FIELDS = ['name', 'host', 'port', 'user', 'keyId', 'hostKeyFingerprint'] as const;

function field(key: (typeof FIELDS)[number], value: unknown): unknown {
  const where = `endpoint.${key}`;
  switch (key) {
    case 'name':
      return text(value, where, SSH_ENDPOINT_NAME_MAX_LENGTH);
    case 'host':
      return validHost(value, where);
    case 'port':
      return integer(value, where, 1, 65535);
    case 'user':
      return validUser(value, where);
    case 'keyId':
      return value === null ? null : exactId(value, where);
    case 'hostKeyFingerprint':
      return value === null ? null : validFingerprint(value, where);
  }
}

export function validEndpointFields(value: unknown): SshEndpointFields {
  if (!isPlainObject(value)) throw invalid('endpoint', 'endpoint must be an object');
  onlyKeys(value, 'endpoint', FIELDS);
  for (const required of ['name', 'host', 'user'] as const) {
    if (!has(value, required))
      throw invalid(`endpoint.${required}`, `endpoint.${required} is required`);
  }
  return {
    name: field('name', value.name) as string,
    host: field('host', value.host) as string,
    port: field('port', value.port ?? 22) as number,
    user: field('user', value.user) as string,
    keyId: field('keyId', value.keyId ?? null) as string | null,
    hostKeyFingerprint: field('hostKeyFingerprint', value.hostKeyFingerprint ?? null) as
      string | null,
  };
}

export function validEndpointChanges(value: unknown): Partial<SshEndpointFields> {
  if (!isPlainObject(value)) throw invalid('endpoint', 'endpoint must be an object');
  onlyKeys(value, 'endpoint', FIELDS);
  const keys = FIELDS.filter((k) => has(value, k));
  if (keys.length === 0) {
    throw invalid('endpoint', `endpoint must change at least one of ${FIELDS.join(', ')}`);
  }
  return Object.fromEntries(keys.map((k) => [k, field(k, value[k])]));
}
