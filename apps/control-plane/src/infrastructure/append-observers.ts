import type { AppendObserver } from '@sessionboxer/event-store';

/**
 * The event store's one observer, handed to it when it opens, telling whoever adds themselves
 * later (the metrics module) of its commits and appends. Nobody added: nothing happens.
 */
export class AppendObservers implements AppendObserver {
  private readonly observers = new Set<AppendObserver>();

  add(observer: AppendObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  committed(appends: number, events: number): void {
    for (const o of this.observers) o.committed(appends, events);
  }

  appended(seconds: number, ok: boolean): void {
    for (const o of this.observers) o.appended(seconds, ok);
  }
}
