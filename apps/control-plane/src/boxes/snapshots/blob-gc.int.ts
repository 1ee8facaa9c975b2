import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectBlobs, GRACE_MS } from './blob-gc';
import { BlobStore } from './blob-store';
import { capture, writeManifest } from './manifest-snapshots';
import { SnapshotLock } from './snapshot-lock';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const S1 = '11111111-0000-4000-8000-000000000001';
const S2 = '22222222-0000-4000-8000-000000000002';
const GONE = '33333333-0000-4000-8000-000000000003';
const HOUR = 60 * 60 * 1000;

/** Real files in a temporary data dir: workspaces, the blob store, the manifests. */
describe('collecting snapshot blobs (mark and sweep over real files)', () => {
  let dir: string;
  let blobs: BlobStore;
  let manifests: string;
  const liveSnapshots = new Set([`${A}/${S1}`, `${A}/${S2}`]);
  const live = (session: string, snapshot: string) => liveSnapshots.has(`${session}/${snapshot}`);

  /** Takes a snapshot of a workspace holding `files` and writes its manifest. */
  function snapshot(session: string, id: string, files: Record<string, string>) {
    const ws = fs.mkdtempSync(path.join(dir, 'ws-'));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(ws, name), text);
    const taken = capture(ws, blobs, null);
    writeManifest(path.join(manifests, session, `${id}.json`), taken.manifest);
    return taken.manifest;
  }
  /** A file outside any workspace, to put into the store by itself. */
  const file = (name: string, text: string) => {
    fs.writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };
  const sha = (manifest: ReturnType<typeof snapshot>, name: string) =>
    (manifest.entries.find((e) => e.path === name) as { sha256: string }).sha256;
  const age = (file: string, ms: number) => {
    const t = new Date(Date.now() - ms);
    fs.utimesSync(file, t, t);
  };
  const ageAll = (root: string, ms: number) => {
    for (const name of fs.readdirSync(root, { recursive: true }) as string[]) {
      age(path.join(root, name), ms);
    }
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-gc-'));
    blobs = BlobStore.inDataDir(dir);
    manifests = path.join(dir, 'snapshot-manifests');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the blobs live snapshots share and deletes the orphaned ones, counting the bytes', async () => {
    const one = snapshot(A, S1, { 'shared.txt': 'in both snapshots', 'only-1.txt': 'first' });
    const two = snapshot(A, S2, { 'shared.txt': 'in both snapshots', 'only-2.txt': 'second!' });
    // A manifest no snapshot of the history has (a session gone), and its own blob.
    const gone = snapshot(B, GONE, { 'shared.txt': 'in both snapshots', 'lost.txt': 'orphan' });
    // A blob no manifest names at all, and a crashed put's leftover.
    const stray = blobs.put(file('x', 'x'));
    fs.writeFileSync(path.join(blobs.root, '.tmp-leftover'), 'half');
    ageAll(dir, 2 * HOUR);

    const done = await collectBlobs({ blobs, manifestsRoot: manifests, live, now: Date.now() });

    const names: (string | null)[] = [];
    for await (const b of blobs.entries()) names.push(b.sha256);
    expect(new Set(names)).toEqual(
      new Set([sha(one, 'shared.txt'), sha(one, 'only-1.txt'), sha(two, 'only-2.txt')]),
    );
    expect(blobs.has(sha(gone, 'lost.txt'))).toBe(false);
    expect(blobs.has(stray.sha256)).toBe(false);
    expect(fs.existsSync(path.join(blobs.root, '.tmp-leftover'))).toBe(false);
    expect(fs.existsSync(path.join(manifests, B))).toBe(false);
    expect(fs.existsSync(path.join(manifests, A, `${S1}.json`))).toBe(true);
    expect(done).toEqual({
      kept: 3,
      deleted: 3,
      freedBytes: 'orphan'.length + 'x'.length + 'half'.length,
      manifestsDropped: 1,
    });
  });

  it('keeps what is younger than the grace period: a snapshot being taken now', async () => {
    snapshot(A, S1, { 'kept.txt': 'live' });
    ageAll(dir, 2 * HOUR);
    // Taken just now and not in the history yet: its manifest and its blob are young.
    const young = snapshot(B, GONE, { 'new.txt': 'being recorded' });
    // Stored by a take that has not written its manifest yet.
    const fresh = blobs.put(file('fresh', 'stored a moment ago'));
    const done = await collectBlobs({ blobs, manifestsRoot: manifests, live, now: Date.now() });
    expect(blobs.has(sha(young, 'new.txt'))).toBe(true);
    expect(blobs.has(fresh.sha256)).toBe(true);
    expect(fs.existsSync(path.join(manifests, B, `${GONE}.json`))).toBe(true);
    expect(done).toMatchObject({ deleted: 0, manifestsDropped: 0 });
    // An hour and more later, still in no snapshot: collected.
    const later = await collectBlobs({
      blobs,
      manifestsRoot: manifests,
      live,
      now: Date.now() + GRACE_MS + 1,
    });
    expect(blobs.has(sha(young, 'new.txt'))).toBe(false);
    expect(blobs.has(fresh.sha256)).toBe(false);
    expect(later).toMatchObject({ deleted: 2, manifestsDropped: 1 });
  });

  it('an old orphaned blob a new snapshot stores again is touched, so it survives', async () => {
    const gone = snapshot(B, GONE, { 'again.txt': 'the same bytes' });
    ageAll(dir, 2 * HOUR);
    fs.rmSync(path.join(manifests, B), { recursive: true });
    // A take (its manifest not written yet) names the old blob again.
    expect(blobs.put(file('again.txt', 'the same bytes'))).toEqual({
      sha256: sha(gone, 'again.txt'),
      added: 0,
    });
    await collectBlobs({ blobs, manifestsRoot: manifests, live, now: Date.now() });
    expect(blobs.has(sha(gone, 'again.txt'))).toBe(true);
  });

  it('deletes nothing when a live manifest cannot be read, and says which', async () => {
    snapshot(A, S1, { 'a.txt': 'a' });
    const orphan = blobs.put(file('o', 'o'));
    ageAll(dir, 2 * HOUR);
    fs.writeFileSync(path.join(manifests, A, `${S1}.json`), '{ not json');
    await expect(
      collectBlobs({ blobs, manifestsRoot: manifests, live, now: Date.now() }),
    ).rejects.toThrow(new RegExp(`manifest .*${S1}\\.json cannot be read`));
    expect(blobs.has(orphan.sha256)).toBe(true);
  });

  it('a collection waits for the takes that hold the lock, and later takes wait for it', async () => {
    const lock = new SnapshotLock();
    const order: string[] = [];
    let finishTake = () => {};
    const take = lock.shared(async () => {
      order.push('take 1 starts');
      await new Promise<void>((resolve) => (finishTake = resolve));
      order.push('take 1 ends');
    });
    const collect = lock.exclusive(() => void order.push('collect'));
    const second = lock.shared(() => void order.push('take 2'));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['take 1 starts']);
    finishTake();
    await Promise.all([take, collect, second]);
    expect(order).toEqual(['take 1 starts', 'take 1 ends', 'collect', 'take 2']);
  });
});
