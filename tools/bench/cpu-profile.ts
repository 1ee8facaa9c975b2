/**
 * Where a benchmark's time goes: the V8 CPU profiler (what `node --cpu-prof` writes), run
 * in-process around one phase, summed as self time per function and per kind of work.
 */
import { Session, type Profiler } from 'node:inspector';

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session.post(method, params ?? {}, (error, result) =>
      error ? reject(error) : resolve(result as T),
    ),
  );
}

/** Runs `work` under the profiler and returns its profile. */
export async function profiled(work: () => Promise<unknown>): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  try {
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.setSamplingInterval', { interval: 500 });
    await post(session, 'Profiler.start');
    let failure: Error | undefined;
    await work().catch((e: unknown) => (failure = e instanceof Error ? e : new Error(String(e))));
    const { profile } = await post<{ profile: Profiler.Profile }>(session, 'Profiler.stop');
    if (failure !== undefined) throw failure;
    return profile;
  } finally {
    session.disconnect();
  }
}

/** The kinds of work a projection catch-up does, by the frame that takes the sample. */
const KINDS: [string, (name: string, url: string) => boolean][] = [
  [
    'SQLite (better-sqlite3 statements)',
    (n, u) => u === '' && /^(run|get|all|iterate|exec)$/.test(n),
  ],
  ['JSON.parse', (n, u) => u === '' && n === 'parse'],
  ['JSON.stringify', (n, u) => u === '' && n === 'stringify'],
  ['garbage collector', (n) => n === '(garbage collector)'],
  ['idle', (n) => n === '(idle)'],
  ['projections (libs/projections/src/*.ts)', (_, u) => /libs\/projections\/src\/[^/]+$/.test(u)],
  ['runner and read-model store', (_, u) => /libs\/projections\/src\/(runner|store)\//.test(u)],
  ['event store', (_, u) => u.includes('libs/event-store/')],
];

/** Prints the top self-time frames and the share of each kind of work. */
export function printProfile(title: string, profile: Profiler.Profile, top = 12): void {
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFrame = new Map<string, { us: number; name: string; url: string }>();
  let total = 0;
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    total += us;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    const where =
      url === '' ? '(native)' : `${url.replace(/^.*\/work\/main\//, '')}:${lineNumber + 1}`;
    const key = `${name} ${where}`;
    const entry = byFrame.get(key) ?? { us: 0, name, url };
    entry.us += us;
    byFrame.set(key, entry);
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  console.log(
    `  where the time goes, ${title} (self time, ${(total / 1e6).toFixed(1)} s sampled):`,
  );
  const kinds = new Map<string, number>();
  for (const { us, name, url } of byFrame.values()) {
    const kind = KINDS.find(([, test]) => test(name, url))?.[0] ?? 'other (node, V8, libraries)';
    kinds.set(kind, (kinds.get(kind) ?? 0) + us);
  }
  for (const [kind, us] of [...kinds].sort((a, b) => b[1] - a[1])) {
    console.log(`    ${pct(us)}  ${kind}`);
  }
  console.log('    top frames:');
  const frames = [...byFrame].sort((a, b) => b[1].us - a[1].us).slice(0, top);
  for (const [key, { us }] of frames) console.log(`    ${pct(us)}  ${key}`);
}
