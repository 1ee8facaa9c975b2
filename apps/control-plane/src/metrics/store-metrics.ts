import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { EventStore } from '@sessionboxer/event-store';
import type { ProjectionRunner } from '@sessionboxer/projections';
import { Gauge, Histogram, type Registry } from 'prom-client';
import { AppendObservers } from '../infrastructure/append-observers';
import { Reactors } from '../infrastructure/reactors';
import { EVENT_STORE, PROJECTION_RUNNER } from '../infrastructure/tokens';
import { MetricsRegistry } from './metrics.registry';

/**
 * The event store and the read side: append latency and group-commit batch sizes as the
 * SQLite store reports them (AppendObserver), and at each scrape the head of `$all` and how far
 * each projection and reactor is behind it.
 */
@Injectable()
export class StoreMetrics implements OnModuleDestroy {
  private readonly stopObserving: () => void;

  constructor(
    metrics: MetricsRegistry,
    observers: AppendObservers,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROJECTION_RUNNER) private readonly projections: ProjectionRunner,
    private readonly reactors: Reactors,
  ) {
    const registers: Registry[] = [metrics.registry];
    const appendSeconds = new Histogram({
      name: 'sessionboxer_event_store_append_seconds',
      help: 'One append, from its call to its commit (SQLite store), by outcome (ok, refused)',
      labelNames: ['outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers,
    });
    const batchAppends = new Histogram({
      name: 'sessionboxer_event_store_commit_appends',
      help: 'Appends written by one group commit (one transaction, one fsync)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
      registers,
    });
    const batchEvents = new Histogram({
      name: 'sessionboxer_event_store_commit_events',
      help: 'Events written by one group commit',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      registers,
    });
    this.stopObserving = observers.add({
      appended: (seconds, ok) => appendSeconds.observe({ outcome: ok ? 'ok' : 'refused' }, seconds),
      committed: (appends, events) => {
        batchAppends.observe(appends);
        batchEvents.observe(events);
      },
    });
    this.scrapeGauges(registers);
  }

  private scrapeGauges(registers: Registry[]): void {
    const head = () => this.store.headPosition();
    new Gauge({
      name: 'sessionboxer_event_store_head_position',
      help: 'Position of the last event in $all (-1: none)',
      registers,
      async collect() {
        this.set(await head());
      },
    });
    const projections = () => this.projections.status();
    new Gauge({
      name: 'sessionboxer_projection_lag_events',
      help: 'Events of $all a projection has not applied yet (head position − its checkpoint)',
      labelNames: ['projection'],
      registers,
      async collect() {
        const at = await head();
        this.reset();
        for (const p of projections()) this.set({ projection: p.projection }, at - p.position);
      },
    });
    new Gauge({
      name: 'sessionboxer_projection_failed',
      help: 'A projection stopped on an event it could not apply (1), or running (0)',
      labelNames: ['projection'],
      registers,
      collect() {
        this.reset();
        for (const p of projections()) this.set({ projection: p.projection }, p.failure ? 1 : 0);
      },
    });
    const reactors = () => this.reactors.status();
    new Gauge({
      name: 'sessionboxer_reactor_lag_events',
      help: 'Events of $all a reactor is not done with yet (head position − its checkpoint)',
      labelNames: ['reactor'],
      registers,
      async collect() {
        const at = await head();
        this.reset();
        for (const r of reactors()) this.set({ reactor: r.reactor }, at - r.position);
      },
    });
  }

  onModuleDestroy(): void {
    this.stopObserving();
  }
}
