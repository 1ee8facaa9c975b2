import { isEgressLogEvent } from '@sessionboxer/domain';
import type { EgressHostView } from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

export type EgressHostDoc = EgressHostView & { sessionId: string };

const docId = (sessionId: string, target: string) => `${sessionId}/${target}`;

/** Each host:port a session's box connected to through the egress proxy: how often, when last. */
function apply(
  event: RecordedEvent,
  get: (id: string) => EgressHostDoc | null,
): DocumentChange<EgressHostDoc>[] {
  if (!isEgressLogEvent(event) || event.type !== 'EgressAllowed') return [];
  const { sessionId, host, port, at } = event.data;
  const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const id = docId(sessionId, target);
  const before = get(id);
  if (before) return [{ id, doc: { ...before, count: before.count + 1, lastAt: at } }];
  const doc = { sessionId, target, count: 1, lastAt: at };
  return [{ id, partition: sessionId, order: event.position, doc }];
}

export const egressHostsProjection: Projection<EgressHostDoc> = {
  name: 'egress_hosts',
  version: 1,
  handles: ['EgressAllowed'],
  apply,
};

export interface EgressHostQueries {
  /** The session's hosts, in the order its box first reached them. */
  list(sessionId: string): EgressHostView[];
}

export function egressHostQueries(reader: ReadModelReader): EgressHostQueries {
  return {
    list: (sessionId) =>
      reader
        .list(egressHostsProjection, { partition: sessionId })
        .map(({ doc: { target, count, lastAt } }) => ({ target, count, lastAt })),
  };
}
