import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { BOX_STATUSES } from '@sessionboxer/domain';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import {
  conversationQueries,
  sessionDetailsQueries,
  type SqliteReadModelStore,
} from '@sessionboxer/projections';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { CallService } from '../box-gateway';
import { EVENT_STORE, READ_MODELS } from '../infrastructure/tokens';
import { JOBS, type JobsPort } from '../jobs';
import { MetricsRegistry } from './metrics.registry';

/** Distinct tool names a metric keeps apart; a box that invents more adds to `other`. */
const TOOL_LABELS = 256;

/**
 * What the control plane is doing: boxes by status and turns running (read models, at each
 * scrape), tool calls (CallService, the one place calls pass), egress refusals (the
 * EgressRefused events, from a live subscription to `$all` from the head at start) and jobs
 * fired (the jobs port's fires). Counters start at 0 with the process, as Prometheus expects.
 */
@Injectable()
export class ActivityMetrics implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private readonly refusals: Counter<'code'>;
  private subscription: Subscription | null = null;
  private following: Promise<void> | null = null;

  constructor(
    metrics: MetricsRegistry,
    calls: CallService,
    @Inject(JOBS) jobs: JobsPort,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) readModels: SqliteReadModelStore,
  ) {
    const registers: Registry[] = [metrics.registry];
    const sessions = sessionDetailsQueries(readModels);
    const conversations = conversationQueries(readModels);
    new Gauge({
      name: 'sessionboxer_boxes',
      help: 'Boxes by status, as the session details read model shows them',
      labelNames: ['status'],
      registers,
      collect() {
        const counts = new Map<string, number>(BOX_STATUSES.map((s) => [s, 0]));
        for (const s of sessions.all())
          if (s.box) counts.set(s.box.status, (counts.get(s.box.status) ?? 0) + 1);
        for (const [status, n] of counts) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'sessionboxer_turns_running',
      help: "Sessions' agent turns running now (the conversations read model)",
      registers,
      collect() {
        const all = sessions.all().flatMap((s) => conversations.forSession(s.id));
        this.set(all.filter((c) => c.status === 'running').length);
      },
    });
    this.refusals = new Counter({
      name: 'sessionboxer_egress_refusals_total',
      help: 'Connections out of a box the egress proxy refused (EgressRefused events), by code',
      labelNames: ['code'],
      registers,
    });
    const fired = new Counter({
      name: 'sessionboxer_jobs_fired_total',
      help: 'Jobs the jobs port fired (cron schedules, delayed one-shots), by kind',
      labelNames: ['kind'],
      registers,
    });
    jobs.onFire((fire) => {
      fired.inc({ kind: fire.kind });
      return Promise.resolve();
    });
    this.watchCalls(calls, registers);
  }

  private watchCalls(calls: CallService, registers: Registry[]): void {
    const total = new Counter({
      name: 'sessionboxer_tool_calls_total',
      help: "Boxes' tool calls by route, tool and outcome (ok, or the error code answered)",
      labelNames: ['route', 'tool', 'outcome'],
      registers,
    });
    const seconds = new Histogram({
      name: 'sessionboxer_tool_call_seconds',
      help: "Boxes' tool calls, from the frame to the answer, by route and tool",
      labelNames: ['route', 'tool'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers,
    });
    const tool = MetricsRegistry.bounded(TOOL_LABELS);
    calls.onCall((call) => {
      const labels = { route: call.route, tool: tool(call.tool) };
      total.inc({ ...labels, outcome: call.outcome });
      seconds.observe(labels, call.seconds);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const head = await this.store.headPosition();
    const subscription = this.store.subscribeToAll({ fromPosition: head < 0 ? 'start' : head });
    this.subscription = subscription;
    this.following = (async () => {
      for await (const event of subscription) {
        if (event.type !== 'EgressRefused') continue;
        const code = (event.data as { code?: unknown }).code;
        this.refusals.inc({ code: typeof code === 'string' ? code : 'unknown' });
      }
    })().catch((e: unknown) =>
      this.logger.error(`egress refusals no longer counted: ${String(e)}`),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
    await this.following;
  }
}
