/**
 * `npm run bench:search`: the search read model over BENCH_ENTRIES (default 10,000) indexed
 * transcript entries in BENCH_SESSIONS (100) sessions, each a prompt or a reply of 20–60 words
 * from a 2,000-word vocabulary (Zipf-like, so some words are everywhere and some rare):
 *
 *   1. indexing: the events applied in batches of 1,000 (the runner's way), entries/s;
 *   2. queries: GET /api/search's query (searchQueries, limit 20, snippets), p50 and p99 over
 *      BENCH_QUERIES (2,000) of four shapes: a common word, a rare word, two words, a prefix.
 *
 * The read-model file is on the real disk (BENCH_DIR, default the temp dir). Goal: p50 < 5 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionCreated } from '../../libs/domain/test/session-fixtures';
import {
  ConversationScript,
  sessionOwner,
} from '../../libs/projections/test/conversation-fixtures';
import { recorded, type AnyDomainEvent } from '../../libs/projections/test/recorded-events';
import {
  applyEvents,
  searchProjection,
  searchQueries,
  SqliteReadModelStore,
  type ProjectionCursor,
} from '@sessionboxer/projections';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2_000);

/** A deterministic generator, so two runs search the same text. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rnd = random(15);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'to', 'sa', 'vi', 'de', 'po', 'zu', 'ga'];
const VOCABULARY = Array.from({ length: 2000 }, (_, i) => {
  let w = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / SYLLABLES.length)) {
    w += SYLLABLES[n % SYLLABLES.length];
  }
  return w;
});
/** Rank r is picked with weight ~1/r. */
const word = () => VOCABULARY[Math.floor(VOCABULARY.length ** rnd()) - 1];
const sentence = () => Array.from({ length: 20 + Math.floor(rnd() * 40) }, word).join(' ');

function events(): AnyDomainEvent[] {
  const all: AnyDomainEvent[] = [];
  const scripts: ConversationScript[] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const sessionId = `s${s}`;
    all.push(sessionCreated({ sessionId, title: `${word()} ${word()} ${word()}` }));
    const script = new ConversationScript(`c${s}`, sessionOwner(sessionId));
    scripts.push(script);
    all.push(script.started(0));
  }
  for (let e = 0; e < ENTRIES; e++) {
    const script = scripts[e % SESSIONS];
    all.push(e % 2 === 0 ? script.turn(e, `p${e}`, sentence()) : script.message(e, sentence()));
  }
  return all;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function main(): void {
  const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'sb-search-bench-'));
  const store = SqliteReadModelStore.open({ path: join(dir, 'read.db') });
  try {
    const log = recorded(events());
    let cursors: ProjectionCursor[] = store
      .register([searchProjection])
      .map((checkpoint) => ({ projection: searchProjection, checkpoint }));
    const started = process.hrtime.bigint();
    for (let i = 0; i < log.length; i += 1000) {
      cursors = applyEvents(store, cursors, log.slice(i, i + 1000));
    }
    const indexMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (cursors[0].checkpoint.failure) throw new Error(JSON.stringify(cursors[0].checkpoint));
    const queries = searchQueries(store);
    const shapes: Record<string, () => string> = {
      common: () => VOCABULARY[Math.floor(rnd() * 5)],
      rare: () => VOCABULARY[1000 + Math.floor(rnd() * 1000)],
      'two words': () => `${VOCABULARY[Math.floor(rnd() * 50)]} ${word()}`,
      prefix: () => VOCABULARY[Math.floor(rnd() * 200)].slice(0, 3),
    };
    console.log(
      `search bench: ${ENTRIES} entries in ${SESSIONS} sessions, load ${loadavg()[0].toFixed(2)}`,
    );
    console.log(
      `indexing: ${indexMs.toFixed(0)} ms, ${Math.round((ENTRIES / indexMs) * 1000)} entries/s`,
    );
    const all: number[] = [];
    for (const [shape, make] of Object.entries(shapes)) {
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < QUERIES / 4; i++) {
        const q = make();
        const t0 = process.hrtime.bigint();
        hits += queries.search({ q, limit: 20 }).length;
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      times.sort((a, b) => a - b);
      all.push(...times);
      const p50 = percentile(times, 0.5).toFixed(2);
      const p99 = percentile(times, 0.99).toFixed(2);
      console.log(
        `query ${shape.padEnd(10)} p50 ${p50} ms  p99 ${p99} ms  (${(hits / (QUERIES / 4)).toFixed(1)} hits)`,
      );
    }
    all.sort((a, b) => a - b);
    const p50 = percentile(all, 0.5);
    console.log(
      `all queries p50 ${p50.toFixed(2)} ms, p99 ${percentile(all, 0.99).toFixed(2)} ms (goal p50 < 5 ms: ${p50 < 5 ? 'met' : 'NOT met'})`,
    );
  } finally {
    store.close();
    if (process.env.BENCH_KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main();
