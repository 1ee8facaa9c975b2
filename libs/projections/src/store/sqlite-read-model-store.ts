import Database from 'better-sqlite3';
import type { AnyProjection, DocumentChange, Projection } from '../projection';
import {
  createFullTextSql,
  dropFullTextSql,
  fullTextTables,
  matchExpression,
  searchHits,
  searchParams,
  searchSql,
} from './full-text';
import type {
  Checkpoint,
  FullTextHit,
  FullTextQuery,
  ListOptions,
  ReactorCheckpoint,
  ReadModelReader,
  StoredDocument,
} from './read-model-store';
import {
  prepareCheckpointSql,
  SQL,
  tableOf,
  toCheckpoint,
  toStored,
  type CheckpointRow,
  type DocRow,
} from './read-model-sql';

/** A DocumentChange with its document serialised (null deletes). */
export type DocumentWrite = Omit<DocumentChange<unknown>, 'doc'> & { json: string | null };

export interface ReadModelStoreOptions {
  /** A file path, or ':memory:' for tests. Keep it apart from the event store's file. */
  path: string;
  /**
   * For a rebuild into a fresh file only: no syncs at all (`synchronous=OFF`) and the rollback
   * journal in memory, not a WAL, so each page is written once, not to the WAL and then again
   * (about 7 % of a rebuild, bench:projections). A crash then may corrupt the file, which is
   * fine because a failed rebuild is thrown away and run again; opened again without `bulk`,
   * the file is back in WAL mode.
   */
  bulk?: boolean;
  /** With path ':memory:': start from this image of an in-memory store (see `serialize`). */
  image?: Buffer;
}

/**
 * Read models in SQLite: one table of JSON documents per projection `(id, partition, ord, doc)`
 * indexed on (partition, ord), and one checkpoints table. A projection with `fullText` also
 * has an FTS5 index over its documents, kept by triggers on its table (see full-text.ts).
 * Synchronous (better-sqlite3), so a projection's `get` inside a batch sees the batch's own
 * earlier writes.
 *
 * `synchronous=NORMAL`: in WAL mode a power cut can lose the last transactions but never splits
 * one, and documents and checkpoint share a transaction, so the runner just re-applies them.
 */
export class SqliteReadModelStore implements ReadModelReader {
  private readonly statements = new Map<string, Database.Statement>();
  /**
   * The checkpoint statements, prepared once: the runner saves every projection's checkpoint
   * after each batch (and each reactor its own), and preparing them anew each time was most of
   * a one-event batch's cost.
   */
  private readonly checkpointSql: ReturnType<typeof prepareCheckpointSql>;

  private constructor(
    private readonly db: Database.Database,
    readonly path: string,
  ) {
    this.checkpointSql = prepareCheckpointSql(db);
  }

  static open(options: ReadModelStoreOptions): SqliteReadModelStore {
    const db = options.image ? new Database(options.image) : new Database(options.path);
    db.pragma(options.bulk ? 'journal_mode = MEMORY' : 'journal_mode = WAL');
    db.pragma(options.bulk ? 'synchronous = OFF' : 'synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    // Measured on 100k events: a 64 MB page cache and fewer WAL checkpoints (each one syncs
    // the main file) take a catch-up from ~22k to ~27k events/s; tools/bench/pipeline.bench.ts.
    db.pragma('cache_size = -65536');
    db.pragma('wal_autocheckpoint = 10000');
    db.exec(`CREATE TABLE IF NOT EXISTS checkpoints (
      projection TEXT PRIMARY KEY, version INTEGER NOT NULL, position INTEGER NOT NULL, failure TEXT)`);
    // Apart from the projections' checkpoints: a rebuild or a comparison never sees reactors.
    db.exec(`CREATE TABLE IF NOT EXISTS reactor_checkpoints (
      reactor TEXT PRIMARY KEY, position INTEGER NOT NULL, failure TEXT)`);
    return new SqliteReadModelStore(db, options.path);
  }

  /**
   * Makes sure each projection has its table and a checkpoint. A projection whose version
   * differs from the stored one loses its documents and starts again from -1.
   */
  register(projections: readonly AnyProjection[]): Checkpoint[] {
    return this.transaction(() => projections.map((p) => this.registerOne(p)));
  }

  get<Doc>(projection: Projection<Doc>, id: string): Doc | null {
    const row = this.statement(projection.name, 'get').get(id) as { doc: string } | undefined;
    return row === undefined ? null : (JSON.parse(row.doc) as Doc);
  }

  list<Doc>(projection: Projection<Doc>, options: ListOptions): StoredDocument<Doc>[] {
    const params = {
      partition: options.partition,
      after: options.after ?? null,
      limit: options.limit ?? -1,
    };
    const rows = this.statement(projection.name, 'list').all(params) as DocRow[];
    return rows.map((r) => toStored<Doc>(r));
  }

  search<Doc>(projection: Projection<Doc>, query: FullTextQuery): FullTextHit<Doc>[] {
    const index = projection.fullText;
    if (index === undefined) throw new Error(`read model ${projection.name} has no fullText`);
    const match = matchExpression(query.text);
    if (match === null || !(query.limit >= 1)) return [];
    const paths = (query.where ?? []).map((w) => w.path);
    const key = `${projection.name}:search:${paths.join(' ')}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      const table = this.existingTable(projection.name);
      statement = this.db.prepare(searchSql(projection.name, table, index, paths));
      this.statements.set(key, statement);
    }
    return searchHits<Doc>(statement.all(searchParams(match, query)));
  }

  /** Every document of a projection, ordered by id (as SQLite orders: by UTF-8 bytes). */
  *scan(projectionName: string): IterableIterator<StoredDocument<unknown>> {
    // A statement of its own (not the cached one), so two scans can run side by side.
    const statement = this.db.prepare(SQL.scan(this.existingTable(projectionName)));
    for (const row of statement.iterate()) {
      yield toStored(row as DocRow);
    }
  }

  count(projectionName: string): number {
    return (this.statement(projectionName, 'count').get() as { n: number }).n;
  }

  /** Writes one projection's changes (documents already as JSON); call it in `transaction`. */
  write(projectionName: string, changes: readonly DocumentWrite[]): void {
    if (changes.length === 0) return;
    // Looked up once per call and bound by position: a catch-up writes millions of rows.
    const upsert = this.statement(projectionName, 'upsert');
    for (const change of changes) {
      if (change.json === null) {
        this.statement(projectionName, 'delete').run(change.id);
        continue;
      }
      const partition = change.partition ?? null;
      const ord = change.order ?? null;
      upsert.run(change.id, partition, ord, change.json, partition, ord);
    }
  }

  saveCheckpoint(checkpoint: Checkpoint): void {
    this.checkpointSql.save.run(
      checkpoint.projection,
      checkpoint.version,
      checkpoint.position,
      checkpoint.failure === null ? null : JSON.stringify(checkpoint.failure),
    );
  }

  checkpoint(projectionName: string): Checkpoint | null {
    const row = this.checkpointSql.get.get(projectionName) as CheckpointRow | undefined;
    return row === undefined ? null : toCheckpoint(row);
  }

  checkpoints(): Checkpoint[] {
    const rows = this.checkpointSql.all.all() as CheckpointRow[];
    return rows.map(toCheckpoint);
  }

  saveReactorCheckpoint({ reactor, position, failure }: ReactorCheckpoint): void {
    this.checkpointSql.saveReactor.run(
      reactor,
      position,
      failure === null ? null : JSON.stringify(failure),
    );
  }

  reactorCheckpoint(reactor: string): ReactorCheckpoint | null {
    const row = this.checkpointSql.getReactor.get(reactor) as
      { position: number; failure: string | null } | undefined;
    if (row === undefined) return null;
    const failure =
      row.failure === null ? null : (JSON.parse(row.failure) as ReactorCheckpoint['failure']);
    return { reactor, position: row.position, failure };
  }

  /** Runs `fn` in one SQLite transaction; a throw rolls everything back. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** The whole database as one buffer: an in-memory store's image, for `open({ image })`. */
  serialize(): Buffer {
    return this.db.serialize();
  }

  close(): void {
    this.statements.clear();
    if (this.db.open) this.db.close();
  }

  private registerOne(projection: AnyProjection): Checkpoint {
    const table = tableOf(projection.name);
    const stored = this.checkpoint(projection.name);
    const indexed = projection.fullText === undefined || this.hasFullText(projection.name);
    if (stored !== null && stored.version === projection.version && indexed) return stored;
    this.forget(projection.name);
    this.db.exec(dropFullTextSql(projection.name));
    this.db.exec(`DROP TABLE IF EXISTS ${table}`);
    this.db.exec(`CREATE TABLE ${table} (
      id TEXT PRIMARY KEY, partition TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL)`);
    this.db.exec(`CREATE INDEX ${table}_partition_ord ON ${table} (partition, ord)`);
    if (projection.fullText !== undefined) {
      this.db.exec(createFullTextSql(projection.name, table, projection.fullText));
    }
    const fresh = { projection: projection.name, version: projection.version, position: -1 };
    this.saveCheckpoint({ ...fresh, failure: null });
    return { ...fresh, failure: null };
  }

  /** Statements are prepared once per table; a dropped table's statements are forgotten. */
  private statement(projectionName: string, kind: keyof typeof SQL): Database.Statement {
    const key = `${projectionName}:${kind}`;
    let statement = this.statements.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(SQL[kind](this.existingTable(projectionName)));
      this.statements.set(key, statement);
    }
    return statement;
  }

  private existingTable(projectionName: string): string {
    const table = tableOf(projectionName);
    const sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
    if (this.db.prepare(sql).get(table) === undefined) {
      throw new Error(`read model ${projectionName} is not in ${this.path}; register it first`);
    }
    return table;
  }

  private hasFullText(projectionName: string): boolean {
    const sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
    return this.db.prepare(sql).get(fullTextTables(projectionName).fts) !== undefined;
  }

  private forget(projectionName: string): void {
    for (const key of [...this.statements.keys()]) {
      if (key.startsWith(`${projectionName}:`)) this.statements.delete(key);
    }
  }
}
