/**
 * Where the hash chain's write cost goes (`npm run bench:audit -- --profile`, or this file
 * directly): bench:store's 64-writer run (audit.bench.ts, part 1) with the chain and without
 * it under the V8 CPU profiler, in alternating rounds, then each frame's self time per event
 * with and without the chain and the frames that differ most (what the chain adds).
 */
import type { Profiler } from 'node:inspector';
import { profiled } from './cpu-profile';

/** Self microseconds per frame ("name file:line"), summed over the profile. */
function selfTimes(profile: Profiler.Profile): Map<string, number> {
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
  const byFrame = new Map<string, number>();
  for (const node of profile.nodes) {
    const us = self.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const where =
      url === '' ? '(native)' : `${url.replace(/^.*\/work\/main\//, '')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'} ${where}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + us);
  }
  return byFrame;
}

function add(into: Map<string, number>, from: Map<string, number>): void {
  for (const [k, us] of from) into.set(k, (into.get(k) ?? 0) + us);
}

/**
 * Runs `run(chain)` `rounds` times each way under the profiler and prints µs per event of
 * every frame that differs by at least 0.05 µs, and the totals (idle left out).
 */
export async function profileChain(
  run: (chain: boolean) => Promise<number>,
  rounds: number,
): Promise<void> {
  const sums = { on: new Map<string, number>(), off: new Map<string, number>() };
  const events = { on: 0, off: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const mode of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      let n = 0;
      const profile = await profiled(async () => {
        n = await run(mode === 'on');
      });
      events[mode] += n;
      add(sums[mode], selfTimes(profile));
    }
  }
  const per = (mode: 'on' | 'off', key: string) => (sums[mode].get(key) ?? 0) / events[mode];
  const keys = new Set([...sums.on.keys(), ...sums.off.keys()]);
  keys.delete('(idle) (native)');
  const total = (mode: 'on' | 'off') => [...keys].reduce((s, k) => s + per(mode, k), 0);
  console.log(
    `  sampled CPU per event (idle left out): ${total('off').toFixed(2)} µs without the chain, ${total('on').toFixed(2)} µs with it`,
  );
  console.log('  frames by what the chain adds (µs per event: with, without, difference):');
  const rows = [...keys]
    .map((k) => ({ k, on: per('on', k), off: per('off', k) }))
    .filter((r) => Math.abs(r.on - r.off) >= 0.05 || r.on >= 0.3)
    .sort((a, b) => b.on - b.off - (a.on - a.off));
  for (const r of [...rows.slice(0, 30), ...rows.slice(30).filter((x) => x.on - x.off < -0.05)]) {
    const f = (x: number) => x.toFixed(2).padStart(6);
    console.log(`    ${f(r.on)} ${f(r.off)} ${f(r.on - r.off)}  ${r.k}`);
  }
}
