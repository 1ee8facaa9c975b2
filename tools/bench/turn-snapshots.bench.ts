/**
 * Automatic per-turn snapshots (`npm run bench:audit`, part 4; or run this file alone): a
 * workspace of 200 MB (2,000 files of 100 KB in 50 folders) on the real disk, snapshotted once
 * (everything into the blob store), then 20 turns that each change 3 files, each followed by
 * the turn's snapshot as the reactor takes it (walk with mtime+size against the previous
 * manifest, the 3 changed files into the blob store, the manifest written): p50 and p95
 * (goal p50 < 100 ms), and what each turn added to the store.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobStore } from '../../apps/control-plane/src/boxes/snapshots/blob-store';
import {
  capture,
  writeManifest,
  type Manifest,
} from '../../apps/control-plane/src/boxes/snapshots/manifest-snapshots';

const FOLDERS = 50;
const FILES_PER_FOLDER = 40;
const FILE_BYTES = 100 * 1024;
const TURNS = 20;
const CHANGED = 3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

function seedWorkspace(workspace: string): void {
  for (let d = 0; d < FOLDERS; d++) {
    const dir = join(workspace, `pkg-${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < FILES_PER_FOLDER; f++) {
      writeFileSync(join(dir, `file-${f}.bin`), randomBytes(FILE_BYTES));
    }
  }
}

export async function benchTurnSnapshots(
  base: string,
  line: (label: string, value: string) => void,
): Promise<void> {
  const dir = mkdtempSync(join(base, 'sb-turn-snapshots-'));
  try {
    const workspace = join(dir, 'workspace');
    seedWorkspace(workspace);
    const blobs = new BlobStore(join(dir, 'blobs'));
    const start = performance.now();
    let previous: Manifest = capture(workspace, blobs, null).manifest;
    writeManifest(join(dir, 'manifests', 'turn-0.json'), previous);
    const mb = (FOLDERS * FILES_PER_FOLDER * FILE_BYTES) / 1e6;
    line(
      `first snapshot of a ${mb.toFixed(0)} MB workspace (every file stored)`,
      `${(performance.now() - start).toFixed(0)} ms`,
    );
    const times: number[] = [];
    let added = 0;
    for (let turn = 1; turn <= TURNS; turn++) {
      // The turn: 3 files rewritten with new bytes.
      for (let c = 0; c < CHANGED; c++) {
        const file = join(workspace, `pkg-${(turn * 7 + c) % FOLDERS}`, `file-${c}.bin`);
        writeFileSync(file, randomBytes(FILE_BYTES));
      }
      const t0 = performance.now();
      const taken = capture(workspace, blobs, previous);
      writeManifest(join(dir, 'manifests', `turn-${turn}.json`), taken.manifest);
      times.push(performance.now() - t0);
      added += taken.newBytes;
      previous = taken.manifest;
    }
    await Promise.resolve();
    times.sort((a, b) => a - b);
    const stored = readdirSync(join(dir, 'blobs')).filter((d) => d.length === 2);
    const blobCount = stored.reduce((n, d) => n + readdirSync(join(dir, 'blobs', d)).length, 0);
    line(
      `per-turn snapshot, ${mb.toFixed(0)} MB workspace, ${CHANGED} changed files`,
      `p50 ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms (goal p50 < 100 ms)`,
    );
    line(
      `  blob store after ${TURNS} turns`,
      `${blobCount} blobs (${FOLDERS * FILES_PER_FOLDER} + ${TURNS}×${CHANGED}), ${(added / 2 ** 20).toFixed(1)} MB added by the turns`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const base = process.env.BENCH_DIR ?? tmpdir();
  benchTurnSnapshots(base, (label, value) => console.log(`${label.padEnd(58)} ${value}`)).catch(
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
