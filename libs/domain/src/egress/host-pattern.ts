import { invalid } from '../kernel/validation';
import { EGRESS_ALLOW_LIST_MAX, EGRESS_PATTERN_MAX_LENGTH } from '../limits';

/**
 * One allow-list entry: a host name (or `*.` and a suffix, matching every name below it but
 * not the suffix itself) and a port. Names are kept lowercase, without a trailing dot.
 */
export interface HostPattern {
  host: string;
  wildcard: boolean;
  port: number;
}

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A DNS name as it is compared: lowercase, no trailing dot; null when it is not one. */
export function normalHost(host: string): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return null;
  return name.split('.').every((label) => LABEL.test(label)) ? name : null;
}

/** `host:port` or `*.suffix:port` (`api.anthropic.com:443`, `*.githubusercontent.com:443`). */
export function parseHostPattern(text: unknown, field = 'allow'): HostPattern {
  if (typeof text !== 'string' || text.length === 0 || text.length > EGRESS_PATTERN_MAX_LENGTH) {
    throw invalid(
      field,
      `${field}: an entry is host:port, at most ${EGRESS_PATTERN_MAX_LENGTH} characters`,
    );
  }
  const m = /^(\*\.)?([^:*]+):(\d{1,5})$/.exec(text.trim());
  const host = m ? normalHost(m[2]) : null;
  const port = m ? Number(m[3]) : 0;
  if (!m || host === null || port < 1 || port > 65535) {
    throw invalid(
      field,
      `${field}: ${JSON.stringify(text)} is not host:port or *.suffix:port (a DNS name, a port from 1 to 65535)`,
    );
  }
  if (m[1] && !host.includes('.')) {
    throw invalid(field, `${field}: ${JSON.stringify(text)} would allow a whole top-level domain`);
  }
  return { host, wildcard: m[1] !== undefined, port };
}

export function formatHostPattern(p: HostPattern): string {
  return `${p.wildcard ? '*.' : ''}${p.host}:${p.port}`;
}

/** A whole allow list, checked and normalised (duplicates dropped, order kept). */
export function validAllowList(value: unknown, field = 'allow'): string[] {
  if (!Array.isArray(value)) throw invalid(field, `${field} must be an array of host:port entries`);
  if (value.length > EGRESS_ALLOW_LIST_MAX) {
    throw invalid(
      field,
      `${field} holds at most ${EGRESS_ALLOW_LIST_MAX} entries, got ${value.length}`,
    );
  }
  const entries = value.map((v, i) => formatHostPattern(parseHostPattern(v, `${field}[${i}]`)));
  return [...new Set(entries)];
}

export function matchesPattern(p: HostPattern, host: string, port: number): boolean {
  if (p.port !== port) return false;
  return p.wildcard ? host.endsWith(`.${p.host}`) : host === p.host;
}

/**
 * The entry of `allow` that lets a connection to host:port through, or null. An address
 * literal matches only an entry naming that same literal.
 */
export function allowedBy(allow: readonly string[], host: string, port: number): string | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  for (const entry of allow) {
    if (matchesPattern(parseHostPattern(entry), name, port)) return entry;
  }
  return null;
}
