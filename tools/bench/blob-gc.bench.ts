/**
 * The collection of snapshot blobs (run alone: `node -r @swc-node/register
 * tools/bench/blob-gc.bench.ts`): a blob store of 20,000 blobs on the real disk, 100 sessions
 * with 10 turn snapshots each (each manifest names 2,000 files, most shared with the turn
 * before), 5,000 blobs no manifest names; one mark and sweep over it all, and one more with
 * nothing left to collect. Prints the time, the blobs deleted, the bytes freed and the longest
 * the event loop waited meanwhile (the collection runs in the control plane's process).
 */
import { createHash, randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { collectBlobs } from '../../apps/control-plane/src/boxes/snapshots/blob-gc';
import { BlobStore } from '../../apps/control-plane/src/boxes/snapshots/blob-store';
import {
  writeManifest,
  type ManifestEntry,
} from '../../apps/control-plane/src/boxes/snapshots/manifest-snapshots';

const LIVE_BLOBS = 15_000;
const ORPHANS = 5_000;
const SESSIONS = 100;
const TURNS = 10;
const FILES = 2_000;
const OLD = new Date(Date.now() - 24 * 3600_000);

function blob(blobs: BlobStore, n: number): string {
  const bytes = Buffer.from(`blob number ${n} `.repeat(64));
  const sha = createHash('sha256').update(bytes).digest('hex');
  const file = blobs.path(sha);
  fs.mkdirSync(join(file, '..'), { recursive: true });
  fs.writeFileSync(file, bytes);
  fs.utimesSync(file, OLD, OLD);
  return sha;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(join(tmpdir(), 'sb-blob-gc-'));
  try {
    const blobs = new BlobStore(join(dir, 'blobs'));
    const manifests = join(dir, 'manifests');
    const live = Array.from({ length: LIVE_BLOBS }, (_, n) => blob(blobs, n));
    for (let n = 0; n < ORPHANS; n++) blob(blobs, LIVE_BLOBS + n);
    const snapshots = new Set<string>();
    for (let s = 0; s < SESSIONS; s++) {
      const session = randomUUID();
      for (let t = 0; t < TURNS; t++) {
        const id = randomUUID();
        snapshots.add(`${session}/${id}`);
        const entries: ManifestEntry[] = Array.from({ length: FILES }, (_, f) => ({
          path: `f${f}`,
          type: 'file',
          mode: 0o644,
          uid: 0,
          gid: 0,
          mtimeMs: 0,
          size: 1024,
          sha256: live[(s * 150 + f + t * 3) % LIVE_BLOBS],
        }));
        writeManifest(join(manifests, session, `${id}.json`), {
          format: 'sessionboxer-snapshot-manifest/1',
          entries,
        });
      }
    }
    const options = {
      blobs,
      manifestsRoot: manifests,
      live: (session: string, id: string) => snapshots.has(`${session}/${id}`),
      now: Date.now(),
    };
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let t0 = performance.now();
    const first = await collectBlobs(options);
    const firstMs = performance.now() - t0;
    delay.disable();
    t0 = performance.now();
    const again = await collectBlobs(options);
    const againMs = performance.now() - t0;
    const n = SESSIONS * TURNS;
    console.log(`load average before: ${load}`);
    console.log(
      `collect over ${LIVE_BLOBS + ORPHANS} blobs, ${n} manifests of ${FILES} files: ${firstMs.toFixed(0)} ms, ${first.deleted} deleted, ${first.freedBytes} bytes freed, ${first.kept} kept`,
    );
    console.log(
      `  the event loop waited at most ${(delay.max / 1e6).toFixed(0)} ms meanwhile (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms)`,
    );
    console.log(`again, nothing to collect: ${againMs.toFixed(0)} ms, ${again.deleted} deleted`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
