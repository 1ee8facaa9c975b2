import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** The control plane's own registry (never prom-client's global one), with Node's defaults. */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Bounds a label a box or a caller chooses: the first `max` values, then `other`. */
  static bounded(max: number): (value: string) => string {
    const seen = new Set<string>();
    return (value) => {
      if (seen.has(value)) return value;
      if (seen.size >= max) return 'other';
      seen.add(value);
      return value;
    };
  }
}
