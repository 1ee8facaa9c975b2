import { assertNever, type Command, type Decider, type DomainEvent } from '../kernel';
import { CONTROL, invalid } from '../kernel/validation';
import { EGRESS_PATTERN_MAX_LENGTH } from '../limits';

/**
 * Why the egress proxy refused a connection: not on the allow list, an address no box may
 * reach (loopback, private, link-local, metadata…, after DNS), or the control plane itself.
 */
export const EGRESS_REFUSALS = ['not_allowed', 'refused_address', 'control_plane'] as const;
export type EgressRefusal = (typeof EGRESS_REFUSALS)[number];

export type RecordEgress = Command<
  'RecordEgress',
  | { sessionId: string; host: string; port: number; allowed: true; address: string }
  | {
      sessionId: string;
      host: string;
      port: number;
      allowed: false;
      code: EgressRefusal;
      reason: string;
    }
>;
export type EgressLogCommand = RecordEgress;

/** A connection the proxy made, to the address it checked (auditors replay policy over it). */
export type EgressAllowed = DomainEvent<
  'EgressAllowed',
  { sessionId: string; host: string; port: number; address: string; at: string }
>;
export type EgressRefused = DomainEvent<
  'EgressRefused',
  { sessionId: string; host: string; port: number; code: EgressRefusal; reason: string; at: string }
>;
export type EgressLogEvent = EgressAllowed | EgressRefused;

export const EGRESS_LOG_EVENT_TYPES: readonly EgressLogEvent['type'][] = [
  'EgressAllowed',
  'EgressRefused',
];
export function isEgressLogEvent(e: { type: string; data: unknown }): e is EgressLogEvent {
  return (EGRESS_LOG_EVENT_TYPES as readonly string[]).includes(e.type);
}

/** A session's connections out of its box: `egress-<session id>`. */
export function egressStream(sessionId: string): string {
  return `egress-${sessionId}`;
}

const REASON_MAX = 500;

function checkTarget(host: unknown, port: unknown): void {
  if (
    typeof host !== 'string' ||
    host.length === 0 ||
    host.length > EGRESS_PATTERN_MAX_LENGTH ||
    CONTROL.test(host)
  ) {
    throw invalid('host', 'host must be a one-line name or address');
  }
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw invalid('port', 'port must be an integer from 0 to 65535');
  }
}

function decide(command: EgressLogCommand, _state: null): EgressLogEvent[] {
  switch (command.type) {
    case 'RecordEgress': {
      const d = command.data;
      const at = command.metadata.at;
      checkTarget(d.host, d.port);
      const { sessionId, host, port } = d;
      if (d.allowed) {
        return [{ type: 'EgressAllowed', data: { sessionId, host, port, address: d.address, at } }];
      }
      if (!EGRESS_REFUSALS.includes(d.code)) throw invalid('code', 'unknown refusal');
      const reason = d.reason.slice(0, REASON_MAX);
      return [{ type: 'EgressRefused', data: { sessionId, host, port, code: d.code, reason, at } }];
    }
    default:
      return assertNever(command.type);
  }
}

/** A log, not a state: every connection is recorded as it was decided. */
export const egressLogDecider: Decider<EgressLogCommand, EgressLogEvent, null> = {
  decide,
  evolve: () => null,
  initialState: null,
};
