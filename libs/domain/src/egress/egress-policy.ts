import { assertNever, type Command, type Decider, type DomainEvent } from '../kernel';
import { invalid } from '../kernel/validation';
import { validAllowList } from './host-pattern';

/** What a box may reach unless Global settings say otherwise (ports 443, and 80 for Debian). */
export const DEFAULT_EGRESS_ALLOW_LIST: readonly string[] = [
  'api.anthropic.com:443',
  'api.openai.com:443',
  'openrouter.ai:443',
  'registry.npmjs.org:443',
  'pypi.org:443',
  'files.pythonhosted.org:443',
  'deb.debian.org:443',
  'deb.debian.org:80',
  'security.debian.org:443',
  'security.debian.org:80',
  'github.com:443',
  'api.github.com:443',
  'codeload.github.com:443',
  '*.githubusercontent.com:443',
];

/**
 * A session's own egress: `inherit` the global list, `extend` it with more entries, or
 * `replace` it with its own.
 */
export const SESSION_EGRESS_MODES = ['inherit', 'extend', 'replace'] as const;
export type SessionEgressMode = (typeof SESSION_EGRESS_MODES)[number];

export type SetEgressPolicy = Command<'SetEgressPolicy', { allow: string[] }>;
export type SetSessionEgress = Command<
  'SetSessionEgress',
  { sessionId: string; mode: SessionEgressMode; allow: string[] }
>;
export type EgressPolicyCommand = SetEgressPolicy | SetSessionEgress;

/** The global allow list, whole. */
export type EgressPolicySet = DomainEvent<'EgressPolicySet', { allow: string[]; at: string }>;
export type SessionEgressSet = DomainEvent<
  'SessionEgressSet',
  { sessionId: string; mode: SessionEgressMode; allow: string[]; at: string }
>;
export type EgressPolicyEvent = EgressPolicySet | SessionEgressSet;

export const EGRESS_POLICY_EVENT_TYPES: readonly EgressPolicyEvent['type'][] = [
  'EgressPolicySet',
  'SessionEgressSet',
];
export function isEgressPolicyEvent(e: { type: string; data: unknown }): e is EgressPolicyEvent {
  return (EGRESS_POLICY_EVENT_TYPES as readonly string[]).includes(e.type);
}

/** The global policy's stream, and each session's override's (`egresspolicy-<session id>`). */
export function egressPolicyStream(sessionId: string | null = null): string {
  return `egresspolicy-${sessionId ?? 'global'}`;
}

/** null: never set (the defaults, or inherit for a session). */
export interface EgressPolicyState {
  allow: string[] | null;
  mode: SessionEgressMode;
}

const same = (a: readonly string[] | null, b: readonly string[]) =>
  a !== null && a.length === b.length && a.every((x, i) => x === b[i]);

function decide(command: EgressPolicyCommand, state: EgressPolicyState): EgressPolicyEvent[] {
  const at = command.metadata.at;
  switch (command.type) {
    case 'SetEgressPolicy': {
      const allow = validAllowList(command.data.allow);
      return same(state.allow, allow) ? [] : [{ type: 'EgressPolicySet', data: { allow, at } }];
    }
    case 'SetSessionEgress': {
      const { sessionId, mode } = command.data;
      if (!SESSION_EGRESS_MODES.includes(mode)) {
        throw invalid('mode', `mode must be one of ${SESSION_EGRESS_MODES.join(', ')}`);
      }
      const allow = mode === 'inherit' ? [] : validAllowList(command.data.allow);
      if (state.mode === mode && same(state.allow ?? [], allow)) return [];
      return [{ type: 'SessionEgressSet', data: { sessionId, mode, allow, at } }];
    }
    default:
      return assertNever(command);
  }
}

function evolve(_state: EgressPolicyState, event: EgressPolicyEvent): EgressPolicyState {
  switch (event.type) {
    case 'EgressPolicySet':
      return { allow: event.data.allow, mode: 'replace' };
    case 'SessionEgressSet':
      return { allow: event.data.allow, mode: event.data.mode };
    default:
      return assertNever(event);
  }
}

export const egressPolicyDecider: Decider<
  EgressPolicyCommand,
  EgressPolicyEvent,
  EgressPolicyState
> = { decide, evolve, initialState: { allow: null, mode: 'inherit' } };

/** The list in force for a session: the global one (or the defaults), extended or replaced. */
export function effectiveAllowList(
  global: readonly string[] | null,
  session: { mode: SessionEgressMode; allow: readonly string[] } | null,
): string[] {
  const base = global ?? DEFAULT_EGRESS_ALLOW_LIST;
  if (!session || session.mode === 'inherit') return [...base];
  if (session.mode === 'replace') return [...session.allow];
  return [...new Set([...base, ...session.allow])];
}
