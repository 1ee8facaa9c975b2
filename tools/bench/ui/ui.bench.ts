/**
 * `npm run bench:ui`: lag from an append to the change being visible in a signed-in browser.
 * A real Chromium (playwright-core, Debian's /usr/bin/chromium) shows a session's view; BENCH_N
 * times (default 200) the bench renames the session over the admin API (one SessionRenamed
 * appended) and measures from just before the request to the moment the page's level-1 heading
 * shows the new title. A MutationObserver in the page stamps that moment with
 * performance.timeOrigin + performance.now(); the bench stamps the start the same way in Node.
 * Both clocks are this machine's wall clock; the offset between them is measured by round
 * trips before the run and subtracted. Also prints the PATCH's own time (it answers once the
 * read models caught up). Boxes are off: no box is needed to rename a session.
 * Then long-transcript.ts (BENCH_LONG=off skips it): first paint, keystroke and append →
 * visible with a 10,000-entry transcript, and the machine's load.
 */
import { startBenchApp } from './bench-app';
import {
  openBrowser,
  openSession,
  signIn,
  type BrowserKit,
} from '../../../apps/web/test/browser-kit';
import { longTranscriptBench } from './long-transcript';

const N = Number(process.env.BENCH_N ?? 200);
const TOTAL_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 180_000);
const EACH_MS = 10_000;
const wallNow = (): number => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const line = (label: string, xs: number[]): void =>
  console.log(
    `${label}: p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`,
  );

declare const window: {
  __sbSeen: Record<string, number>;
};

async function main(): Promise<void> {
  const bench = await startBenchApp('sb-bench-ui-', { SESSIONBOXER_BOXES: 'off' });
  const { base, credentials, api } = bench;
  let kit: BrowserKit | undefined;
  const deadline = Date.now() + TOTAL_MS;
  try {
    const { id } = await api('POST', '/api/sessions', { title: 'Bench 0' });

    kit = await openBrowser();
    const { page } = kit;
    await signIn(page, { url: base, credentials });
    await openSession(page, 'Bench 0');

    // Every title the heading shows, stamped when it first appears.
    await page.evaluate(() => {
      window.__sbSeen = {};
      const stamp = (): void => {
        const text = document.querySelector('h1')?.textContent?.trim();
        if (text && !(text in window.__sbSeen))
          window.__sbSeen[text] = performance.timeOrigin + performance.now();
      };
      new MutationObserver(stamp).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
      stamp();
    });

    // Page clock minus Node clock, from the round trip with the least delay.
    let offset = 0;
    let best = Infinity;
    for (let i = 0; i < 20; i++) {
      const before = wallNow();
      const inPage = await page.evaluate(() => performance.timeOrigin + performance.now());
      const after = wallNow();
      if (after - before < best) {
        best = after - before;
        offset = inPage - (before + after) / 2;
      }
    }
    console.log(
      `clock offset page − node: ${offset.toFixed(2)} ms (±${(best / 2).toFixed(2)} ms, best of 20 round trips)`,
    );

    const visible: number[] = [];
    const written: number[] = [];
    for (let i = 1; i <= N; i++) {
      if (Date.now() > deadline) {
        console.log(`stopped after ${i - 1} renames: BENCH_TIMEOUT_MS (${TOTAL_MS} ms) reached`);
        break;
      }
      const title = `Bench ${i}`;
      const start = wallNow();
      await api('PATCH', `/api/sessions/${id}`, { title });
      written.push(wallNow() - start);
      const seen = await page.waitForFunction((t) => window.__sbSeen[t] ?? null, title, {
        timeout: EACH_MS,
      });
      visible.push((await seen.jsonValue()) - offset - start);
    }
    console.log(`renames: ${visible.length} of ${N}`);
    line('PATCH answered (appended, read models caught up)', written);
    line('append → visible in the page (heading text)', visible);
  } finally {
    await kit?.close();
    await bench.close();
  }
}

main()
  .then(() => (process.env.BENCH_LONG === 'off' ? undefined : longTranscriptBench(line)))
  .then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
