import { CHILDREN_MAX, GLOBAL_LEDGER, isLedgerEvent, type LedgerEvent } from '@sessionboxer/domain';
import type { LimitDoc } from '@sessionboxer/contracts';
import type { RecordedEvent } from '@sessionboxer/event-store';
import type { DocumentChange, Projection } from './projection';
import type { ReadModelReader } from './store/read-model-store';

// The limits of agent-created sessions as they stand, for reading: each ledger's alive sessions
// (the wire's LimitDoc). The write side decides in the ledger streams themselves; this only
// shows them.
export type { LimitDoc };

function apply(
  event: RecordedEvent,
  get: (id: string) => LimitDoc | null,
): DocumentChange<LimitDoc>[] {
  if (!isLedgerEvent(event)) return [];
  const e = event as unknown as LedgerEvent;
  const { ledger, sessionId, at } = e.data;
  const doc = get(ledger) ?? {
    ledger,
    alive: [],
    cap: ledger === GLOBAL_LEDGER ? 10 : CHILDREN_MAX,
    updatedAt: at,
  };
  const others = doc.alive.filter((a) => a.sessionId !== sessionId);
  const next =
    e.type === 'PlaceTaken'
      ? {
          ...doc,
          alive: [...others, { sessionId, title: e.data.title }],
          cap: e.data.cap,
          updatedAt: at,
        }
      : { ...doc, alive: others, updatedAt: at };
  return [
    {
      id: ledger,
      partition: 'ledgers',
      order: doc === get(ledger) ? undefined : event.position,
      doc: next,
    },
  ];
}

export const limitsProjection: Projection<LimitDoc> = {
  name: 'limits',
  version: 1,
  handles: ['PlaceTaken', 'PlaceFreed'],
  apply,
};

export interface LimitQueries {
  /** How many of its 3 places a creating agent uses, and by which sessions. */
  children(creatorSessionId: string): LimitDoc;
  global(): LimitDoc;
}

export function limitQueries(reader: ReadModelReader): LimitQueries {
  const read = (ledger: string, cap: number): LimitDoc =>
    reader.get(limitsProjection, ledger) ?? { ledger, alive: [], cap, updatedAt: '' };
  return {
    children: (creatorSessionId) => read(`children-${creatorSessionId}`, CHILDREN_MAX),
    global: () => read(GLOBAL_LEDGER, 10),
  };
}
