/**
 * `restore`: brings a backup back as the data folder's event store and rebuilds the read
 * models from it. Nothing in the folder changes until every check has passed and the new
 * files are ready beside the old ones; the old store is moved aside, never deleted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { readPublicKey, verifyStore } from '@sessionboxer/event-store/chain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { allProjections, rebuildReadModels } from '@sessionboxer/projections';
import { ProgressBar } from './progress';
import {
  EVENTS_FILE,
  inspectStore,
  lockStore,
  READ_MODELS_FILE,
  withSidecars,
  type StoreFacts,
  type StoreLock,
} from './store-files';

export interface RestoreOptions {
  backup: string;
  dataDir: string;
  /** The public key the backup's signed checkpoints are checked with. */
  publicKey: string;
  /** Asked before anything is replaced; false stops the restore with nothing changed. */
  confirm(question: string): Promise<boolean>;
}

export interface RestoreReport extends StoreFacts {
  /** Where the replaced files went, null when the folder had no store. */
  movedAside: string | null;
  signedUpTo: number | null;
  eventsReplayed: number;
}

export async function restoreCommand(options: RestoreOptions): Promise<RestoreReport> {
  const { backup, dataDir } = options;
  if (!fs.existsSync(backup) || !fs.statSync(backup).isFile()) {
    throw new Error(`no backup file at ${backup}`);
  }
  const live = path.join(dataDir, EVENTS_FILE);
  const liveModels = path.join(dataDir, READ_MODELS_FILE);
  if (path.resolve(backup) === path.resolve(live)) {
    throw new Error(`${backup} is the data folder's own store: restore a backup of it`);
  }
  const facts = inspectStore(backup);
  if (!fs.existsSync(options.publicKey)) {
    throw new Error(
      `no public key at ${options.publicKey} to check the backup's signed checkpoints: pass --public-key (the installation's .pub)`,
    );
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const locks = [live, liveModels].filter((f) => fs.existsSync(f)).map(lockAll());
  try {
    const had = fs.existsSync(live) ? locks[0].describe() : null;
    const question = had
      ? `Replace the event store in ${dataDir} (${had}) with ${backup} (${facts.events} events, head ${facts.head})? The old files are moved aside.`
      : `Restore ${backup} (${facts.events} events, head ${facts.head}) into ${dataDir}?`;
    if (!(await options.confirm(question))) throw new Error('restore cancelled: nothing changed');
    const staged = await stage(backup, dataDir, options.publicKey);
    locks.splice(0).forEach((l) => l.release());
    const movedAside = had !== null || fs.existsSync(liveModels) ? moveAside(dataDir) : null;
    fs.renameSync(staged.events, live);
    fs.renameSync(staged.readModels, liveModels);
    return { ...facts, movedAside, signedUpTo: staged.signedUpTo, eventsReplayed: staged.replayed };
  } finally {
    locks.forEach((l) => l.release());
  }
}

function lockAll(): (file: string) => StoreLock {
  const held: StoreLock[] = [];
  return (file) => {
    try {
      const lock = lockStore(file);
      held.push(lock);
      return lock;
    } catch (e) {
      held.forEach((l) => l.release());
      throw e;
    }
  };
}

interface Staged {
  events: string;
  readModels: string;
  signedUpTo: number | null;
  replayed: number;
}

/** Copies, verifies and replays the backup into new files beside the live ones. */
async function stage(backup: string, dataDir: string, publicKey: string): Promise<Staged> {
  const events = path.join(dataDir, `${EVENTS_FILE}.restoring`);
  const readModels = path.join(dataDir, `${READ_MODELS_FILE}.restoring`);
  const clear = () =>
    [events, readModels].flatMap(withSidecars).forEach((f) => fs.rmSync(f, { force: true }));
  clear();
  try {
    await copy(backup, events);
    const migrate = new ProgressBar('migrating');
    const store = SqliteEventStore.open({
      path: events,
      onMigration: (d, t) => migrate.update(d, t),
    });
    migrate.done();
    try {
      const check = new ProgressBar('verifying');
      const verified = await verifyStore(store, readPublicKey(publicKey), (d, t) =>
        check.update(d, t),
      );
      check.done();
      const p = verified.problem;
      if (p) {
        throw new Error(
          `the backup's hash chain does not verify at position ${p.position} (stream ${p.streamName}): ${p.kind}: ${p.detail}: nothing changed`,
        );
      }
      const bar = new ProgressBar('rebuilding');
      const rebuilt = await rebuildReadModels({
        eventStore: store,
        path: readModels,
        projections: allProjections,
        onProgress: (p) => bar.update(p.eventsDone, Math.max(p.headPosition, p.eventsDone)),
      });
      bar.done();
      return { events, readModels, signedUpTo: verified.signedUpTo, replayed: rebuilt.eventsDone };
    } finally {
      await store.close();
    }
  } catch (e) {
    clear();
    throw e;
  }
}

async function copy(from: string, to: string): Promise<void> {
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    const bar = new ProgressBar('copying', process.stderr, 1, 'pages');
    const done = await db.backup(to, {
      progress: ({ totalPages, remainingPages }) => {
        bar.update(totalPages - remainingPages, totalPages);
        return 256;
      },
    });
    bar.update(done.totalPages, done.totalPages);
    bar.done();
  } finally {
    db.close();
  }
  fs.chmodSync(to, 0o600);
}

/** Moves the store and every read-model file (and their WAL files) into `replaced-<time>/`. */
function moveAside(dataDir: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const aside = path.join(dataDir, `replaced-${stamp}`);
  fs.mkdirSync(aside, { mode: 0o700 });
  // Named instances' read models (read-models-<instance>.sqlite) go too: each rebuilds at start.
  const instances = fs.readdirSync(dataDir).filter((n) => /^read-models-.+\.sqlite$/.test(n));
  for (const name of [EVENTS_FILE, READ_MODELS_FILE, ...instances].flatMap(withSidecars)) {
    const file = path.join(dataDir, name);
    if (fs.existsSync(file)) fs.renameSync(file, path.join(aside, name));
  }
  return aside;
}

export function formatRestoreReport(r: RestoreReport, dataDir: string): string {
  const signed = r.signedUpTo === null ? 'no signed checkpoint' : `signed up to ${r.signedUpTo}`;
  return [
    `restored ${r.events} events (head ${r.head}, hash chain intact, ${signed}) into ${dataDir}`,
    `read models rebuilt from ${r.eventsReplayed} events`,
    r.movedAside ? `the replaced store is in ${r.movedAside}` : 'there was no store to replace',
  ].join('\n');
}
