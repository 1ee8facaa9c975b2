/** Who caused something. Always resolved from the connection, never from a payload. */
export type Actor =
  | { kind: 'person'; id: string }
  | { kind: 'agent'; sessionId: string }
  | { kind: 'api-key'; keyId: string; orgId: string }
  | { kind: 'system'; id: string };

export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'person':
      return `person ${actor.id}`;
    case 'agent':
      return `the agent of session ${actor.sessionId}`;
    case 'api-key':
      return `API key ${actor.keyId}`;
    case 'system':
      return `system (${actor.id})`;
  }
}
