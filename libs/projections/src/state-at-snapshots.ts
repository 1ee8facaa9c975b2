import type { SessionState } from '@sessionboxer/domain';

/** A fold of the history's prefix up to `position`, kept to start a later fold from. */
export interface StateAtSnapshot {
  position: number;
  recordedAt: string;
  /** The latest recorded time of any event up to `position` (times may step back). */
  latest: number;
  session: SessionState;
  /** The in-memory read-model store as one buffer (SqliteReadModelStore.serialize). */
  image: Buffer;
}

/**
 * Folds of the history kept in memory, per session, every `every` events: the history only
 * grows, so the fold of a prefix is right forever. A state at a point starts from the last
 * snapshot before it and folds only the events after. At most `maxBytes` of images in all
 * (an image holds every session's documents of these read models, so it grows with the whole
 * history: about 4 MB at 10,000 events), the least recently used session's oldest first.
 */
export class StateAtSnapshots {
  private readonly bySession = new Map<string, StateAtSnapshot[]>();
  private bytes = 0;

  constructor(
    readonly every = 1000,
    private readonly maxBytes = 128 << 20,
  ) {}

  /** The last snapshot whose events all come before the point. */
  before(
    sessionId: string,
    point: { position: number } | { time: number },
  ): StateAtSnapshot | null {
    const list = this.bySession.get(sessionId);
    if (list === undefined) return null;
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, list);
    const fits = (s: StateAtSnapshot) =>
      'position' in point ? s.position <= point.position : s.latest <= point.time;
    for (let i = list.length - 1; i >= 0; i--) if (fits(list[i])) return list[i];
    return null;
  }

  keep(sessionId: string, snapshot: StateAtSnapshot): void {
    const list = this.bySession.get(sessionId) ?? [];
    if (list.some((s) => s.position === snapshot.position)) return;
    list.push(snapshot);
    list.sort((a, b) => a.position - b.position);
    this.bySession.delete(sessionId);
    this.bySession.set(sessionId, list);
    this.bytes += snapshot.image.length;
    while (this.bytes > this.maxBytes) {
      const [oldest, kept] = this.bySession.entries().next().value as [string, StateAtSnapshot[]];
      this.bytes -= (kept.shift() as StateAtSnapshot).image.length;
      if (kept.length === 0) this.bySession.delete(oldest);
    }
  }
}
