/**
 * The long-transcript half of `npm run bench:ui`: a scripted session (boxes on) whose agent
 * bursts BENCH_ENTRIES messages (default 10,000), then in Chromium:
 * - first paint: a reload of the session's page, navigation start → its newest entry in the
 *   transcript (stamped in the page by a MutationObserver installed before the app loads);
 * - keystroke: for each key typed in the Prompt field, keydown → a setTimeout 0 queued from
 *   keydown. Chromium runs that task after the next frame, so it includes the wait for vsync.
 *   The trace shows the main thread idle for ~10 ms of a 20 ms key.
 * - keystroke work: keydown → the key's `input` event reaching window. By then its handlers
 *   and React's render (a microtask after the root's listener) are done. This is how long a
 *   key blocks the page, without the frame's style, layout and paint;
 * - append → visible: the agent says `tick-<i>` every 100 ms; each is stamped as it shows in
 *   the page and compared with its event's `at` (when the control plane appended it), minus
 *   the page − Node clock offset.
 * BENCH_TRACE=<file> saves a Chromium performance trace of the typing (chrome://tracing or
 * DevTools' Performance panel open it), BENCH_TRACE_LOAD=<file> one of the last reload.
 */
import * as fs from 'node:fs';
import { startBenchApp } from './bench-app';
import {
  openBrowser,
  openSession,
  signIn,
  type BrowserKit,
} from '../../../apps/web/test/browser-kit';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const KEYS = 200;
const TICKS = 60;
const RELOADS = 5;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'v8.execute',
  'blink.user_timing',
  // Samples of the page's JavaScript (ProfileChunk events), to tell which functions a task ran.
  'disabled-by-default-v8.cpu_profiler',
];
const wallNow = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Line = (label: string, xs: number[]) => void;

declare const window: {
  __sbStamps: Record<string, number>;
  __sbKeys: number[];
  __sbWork: number[];
  __sbKeyAt: number[];
};

async function waitUntil(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

export async function longTranscriptBench(line: Line): Promise<void> {
  const bench = await startBenchApp('sb-bench-ui-long-');
  const { base, credentials, api } = bench;
  let kit: BrowserKit | undefined;
  try {
    const transcript = async (): Promise<any[]> => {
      const all: any[] = [];
      let after: number | null = 0;
      while (after !== null) {
        const page: any = await api('GET', `/api/sessions/${id}/transcript?after=${after}`);
        all.push(...page.entries);
        after = page.next;
      }
      return all;
    };
    const { id } = await api('POST', '/api/sessions', { title: 'Long', provider: 'scripted' });
    await waitUntil(
      'the box',
      60_000,
      async () => (await api('GET', `/api/sessions/${id}`)).box?.status === 'ready',
    );
    const prompt = (steps: object[]) =>
      api('POST', `/api/sessions/${id}/prompts`, { text: JSON.stringify({ script: steps }) });
    await prompt([{ burst: { count: ENTRIES, rate: 5000 } }, { say: 'burst done' }]);
    await waitUntil(`${ENTRIES} entries`, 300_000, async () =>
      (await transcript()).some((e) => e.kind === 'event' && e.event.text === 'burst done'),
    );
    const count = (await transcript()).length;

    kit = await openBrowser({ timeoutMs: 60_000 });
    const { page } = kit;
    await page.addInitScript(() => {
      window.__sbStamps = {};
      const stamp = (): void => {
        const log = document.querySelector('[role="log"]');
        for (const li of Array.from(log?.querySelectorAll('li') ?? [])) {
          // The prompt's row holds the script, which names what comes: not those entries yet.
          if (li.classList.contains('entry-prompt')) continue;
          const text = li.textContent ?? '';
          const key = text.includes('burst done') ? 'burst done' : /tick-\d+/.exec(text)?.[0];
          if (key && !(key in window.__sbStamps)) window.__sbStamps[key] = performance.now();
        }
      };
      new MutationObserver(stamp).observe(document, { subtree: true, childList: true });
      // Each key: when it went down, and how long until its task was done.
      window.__sbKeys = [];
      window.__sbKeyAt = [];
      window.__sbWork = [];
      globalThis.addEventListener(
        'keydown',
        () => {
          const t0 = performance.now();
          window.__sbKeyAt.push(t0);
          setTimeout(() => window.__sbKeys.push(performance.now() - t0), 0);
        },
        true,
      );
      globalThis.addEventListener('input', () => {
        const down = window.__sbKeyAt[window.__sbKeyAt.length - 1];
        if (down !== undefined) window.__sbWork.push(performance.now() - down);
      });
    });
    await signIn(page, { url: base, credentials });
    await openSession(page, 'Long');
    await page.getByText('burst done', { exact: true }).waitFor({ timeout: 60_000 });

    const paints: number[] = [];
    // BENCH_TRACE_LOAD=<file>: a trace of the last reload, to see what the load runs.
    const loadTrace = process.env.BENCH_TRACE_LOAD;
    for (let i = 0; i < RELOADS; i++) {
      const traced = loadTrace !== undefined && i === RELOADS - 1;
      if (traced)
        await kit.browser.startTracing(page, { path: loadTrace, categories: TRACE_CATEGORIES });
      await page.reload();
      const at = await page.waitForFunction(() => window.__sbStamps['burst done'] ?? null, null, {
        timeout: 60_000,
      });
      paints.push(await at.jsonValue());
      if (traced) await kit.browser.stopTracing();
    }
    console.log(`transcript entries: ${count}`);
    line(`first paint of a ${count}-entry session (navigation → newest entry shown)`, paints);

    const field = page.getByRole('textbox', { name: 'Prompt' });
    await field.click();
    await page.evaluate(() => {
      window.__sbKeys = [];
      window.__sbKeyAt = [];
      window.__sbWork = [];
    });
    // BENCH_TRACE=<file>: a Chromium performance trace of the typing, to see what each key runs.
    const trace = process.env.BENCH_TRACE;
    if (trace) await kit.browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES });
    await page.keyboard.type(
      'a quick brown fox jumps over the lazy dog '.repeat(5).slice(0, KEYS),
      {
        delay: 15,
      },
    );
    await sleep(200);
    if (trace) await kit.browser.stopTracing();
    const keys = await page.evaluate(() => window.__sbKeys);
    line(`keystroke in the prompt, ${count} entries (keydown → a task after the frame)`, keys);
    const work = await page.evaluate(() => window.__sbWork);
    line(`keystroke work in the prompt, ${count} entries (keydown → input handled)`, work);
    const slowest = keys
      .map((ms, i) => ({ ms, i }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 4)
      .map(({ ms, i }) => `key ${i + 1}: ${ms.toFixed(1)} ms`);
    console.log(`  slowest keys: ${slowest.join(', ')}`);
    await field.fill('');

    // The same from as soon as a reload shows the Prompt field, while the transcript's pages
    // are still coming in (the keys typed before its newest entry showed are counted).
    await page.reload();
    await field.click();
    await page.evaluate(() => {
      window.__sbKeys = [];
      window.__sbKeyAt = [];
    });
    await page.keyboard.type('the lazy dog sleeps '.repeat(3), { delay: 15 });
    await page.waitForFunction(() => window.__sbStamps['burst done'] ?? null, null, {
      timeout: 60_000,
    });
    await sleep(200);
    const loading = await page.evaluate(() => ({
      keys: window.__sbKeys,
      early: window.__sbKeyAt.filter((t) => t < window.__sbStamps['burst done']).length,
    }));
    line(`keystroke in the prompt while the ${count} entries load`, loading.keys);
    console.log(
      `  ${loading.early} of ${loading.keys.length} keys typed before the newest entry showed`,
    );
    await field.fill('');

    // Page clock minus Node clock (the page stamps with its own performance.now()).
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
    const origin = await page.evaluate(() => performance.timeOrigin);
    const ticks = Array.from({ length: TICKS }, (_, i) => [{ say: `tick-${i}` }, { sleep: 0.1 }]);
    await prompt(ticks.flat());
    await page.waitForFunction((n) => `tick-${n - 1}` in window.__sbStamps, TICKS, {
      timeout: 60_000,
    });
    const stamps = await page.evaluate(() => window.__sbStamps);
    const appended = new Map(
      (await transcript()).flatMap((e) =>
        e.kind === 'event' && /^tick-\d+$/.test(e.event.text ?? '')
          ? [[e.event.text, Date.parse(e.at)]]
          : [],
      ),
    );
    const lags = [...appended].flatMap(([key, at]) =>
      key in stamps ? [origin + stamps[key] - offset - at] : [],
    );
    line(
      `event appended → visible, ${count} entries (event's at → shown; at has 1 ms steps)`,
      lags,
    );
    console.log(`loadavg: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  } finally {
    await kit?.close();
    await bench.close();
  }
}
