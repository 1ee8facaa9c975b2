import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { EventStore } from '@sessionboxer/event-store';
import {
  allProjections,
  compareReadModels,
  rebuildReadModels,
  SqliteReadModelStore,
  type ReadModelComparison,
} from '@sessionboxer/projections';
import { ProgressBar } from './progress';

export interface ReplayOptions {
  /** The live read models to check. */
  liveReadModels: string;
  /** Keep the rebuilt file here instead of a temporary one. */
  keep: string | null;
}

export interface ReplayReport {
  equal: boolean;
  position: number;
  eventsReplayed: number;
  comparison: ReadModelComparison;
}

/**
 * Rebuilds every read model from the event history into a fresh store, up to where the live
 * read models stand, and reports whether the two are equal, projection by projection.
 */
export async function replayCommand(
  store: EventStore,
  options: ReplayOptions,
): Promise<ReplayReport> {
  if (!fs.existsSync(options.liveReadModels)) {
    throw new Error(
      `no live read models at ${options.liveReadModels}: has the control plane run on this data folder?`,
    );
  }
  const live = SqliteReadModelStore.open({ path: options.liveReadModels });
  const tmp = options.keep ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'sb-replay-'));
  const target = options.keep ?? path.join(tmp as string, 'read-models.sqlite');
  try {
    const position = Math.min(
      ...live.checkpoints().map((c) => c.position),
      await store.headPosition(),
    );
    const bar = new ProgressBar('replay');
    const result = await rebuildReadModels({
      eventStore: store,
      path: target,
      projections: allProjections,
      toPosition: position,
      onProgress: (p) => bar.update(Math.max(0, p.position + 1), p.headPosition + 1),
    });
    bar.done();
    const rebuilt = SqliteReadModelStore.open({ path: target });
    try {
      // One read transaction on the live file: a snapshot, even while the server writes.
      const comparison = live.transaction(() => compareReadModels(live, rebuilt));
      return { equal: comparison.equal, position, eventsReplayed: result.eventsDone, comparison };
    } finally {
      rebuilt.close();
    }
  } finally {
    live.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The report for people: one line per projection, then the verdict. */
export function formatReplayReport(report: ReplayReport): string {
  const lines = report.comparison.projections.map((p) => {
    const live = p.checkpoints.a?.position ?? 'none';
    const rebuilt = p.checkpoints.b?.position ?? 'none';
    if (p.equal) return `  ${p.projection}: equal (position ${live})`;
    const c = p.counts;
    const ids = [...p.changed, ...p.onlyInA, ...p.onlyInB].slice(0, 5).join(', ');
    return `  ${p.projection}: DIFFERENT (live at ${live}, rebuilt at ${rebuilt}; ${c.changed} changed, ${c.onlyInA} only live, ${c.onlyInB} only rebuilt${ids ? `; e.g. ${ids}` : ''})`;
  });
  const verdict = report.equal
    ? `read models equal the replayed history (${report.eventsReplayed} events up to position ${report.position})`
    : 'read models DIFFER from the replayed history';
  return [`replay of ${report.eventsReplayed} events:`, ...lines, verdict].join('\n');
}
