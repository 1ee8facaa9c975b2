import type { RecordedEvent } from '@sessionboxer/event-store';

/** What a reaction gets besides its event. */
export interface ReactionContext {
  /**
   * `<reactor>/<event id>` (and `/<part>`): a key to derive a command's id from, the same every
   * time this event is reacted to, so a repeated reaction is a no-op through the command
   * pipeline's idempotency instead of a second effect.
   */
  key(part?: string): string;
  /** 1 on the first try, then 2, 3, … while the reaction keeps throwing. */
  attempt: number;
}

/**
 * A cross-feature effect as data: the event types it `handles` and `react`, which issues the
 * commands the event calls for. The ReactorRunner calls it once per event, in `$all` order, and
 * stores its checkpoint after each reaction succeeds; delivery is at least once (a crash after
 * the commands, before the checkpoint, reacts again), so `react` must issue idempotent commands
 * (ids from `ctx.key` or another key the event fixes) and check that what it reacts to still
 * holds: a catch-up may deliver an old event into a newer state.
 */
export interface Reactor {
  /** Names its checkpoint: renaming a reactor starts it afresh. */
  readonly name: string;
  readonly handles: readonly string[];
  react(event: RecordedEvent, ctx: ReactionContext): Promise<void>;
}
