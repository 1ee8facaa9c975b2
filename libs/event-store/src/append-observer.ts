/**
 * What an adapter tells about its writes as they happen, for the control plane's metrics.
 * A plain port: no framework and no metrics library here. The SQLite adapter calls it; the
 * EventStoreDB adapter does not (its batches are the server's).
 */
export interface AppendObserver {
  /** One write transaction committed: how many appends wrote events in it, and how many events. */
  committed(appends: number, events: number): void;
  /** One append, from its call to its commit (or refusal), in seconds. */
  appended(seconds: number, ok: boolean): void;
}
