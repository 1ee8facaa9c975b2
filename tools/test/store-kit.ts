/**
 * For the backup and restore tests: the operators' CLI as a child process, a writer of real
 * session events through the real SqliteEventStore, and readers of a store file's rows.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { sessionStream } from '@sessionboxer/domain';
import type { NewEvent } from '@sessionboxer/event-store';
import type { EventRow, SqliteEventStore } from '@sessionboxer/event-store/sqlite';

const root = path.resolve(__dirname, '../..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', '@swc-node/register', path.join(root, 'tools/cli/main.ts'), ...args],
      { cwd: root, env: { ...process.env, EVENTSTORE_URL: '', ...env }, maxBuffer: 32 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const actor = { kind: 'person', id: 'backup-test' } as const;
const meta = () => ({ commandId: randomUUID(), correlationId: 'w', causationId: 'w', actor });

function event(type: string, data: Record<string, unknown>): NewEvent {
  const at = new Date().toISOString();
  return { id: randomUUID(), type, data: { ...data, at }, metadata: { ...meta(), at } };
}

/**
 * Appends session events: a new session is one append of 3 events (created, titled,
 * stopped), a rename of an earlier one an append of 2. So every stream of a consistent copy
 * holds 3 + 2k events with revisions 0, 1, 2, … and a torn append shows as a count that is not.
 */
export class SessionWriter {
  readonly ids: string[] = [];
  appends = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;
  private n = 0;

  constructor(private readonly store: SqliteEventStore) {}

  append(): Promise<unknown> {
    const i = this.n++;
    let done: Promise<unknown>;
    if (this.ids.length < 10 || i % 3 !== 0) {
      const sessionId = randomUUID();
      this.ids.push(sessionId);
      done = this.store.appendToStream(
        sessionStream(sessionId),
        [
          event('SessionCreated', {
            sessionId,
            title: `S${i}`,
            provider: 'claude-code',
            model: 'default',
            environment: 'docker-linux',
            createdBy: null,
            forkedFrom: null,
          }),
          event('SessionTitleSet', { sessionId, title: `T${i}`, previousTitle: `S${i}` }),
          event('SessionStopped', { sessionId, reason: null }),
        ],
        { expectedRevision: 'no_stream' },
      );
    } else {
      const sessionId = this.ids[(i * 7919) % this.ids.length];
      done = this.store.appendToStream(sessionStream(sessionId), [
        event('SessionTitleSet', { sessionId, title: `R${i}`, previousTitle: null }),
        event('SessionTitleSet', { sessionId, title: `Q${i}`, previousTitle: `R${i}` }),
      ]);
    }
    const tracked = done.then(() => this.appends++);
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
    return tracked;
  }

  /** About `perSecond` appends a second, 10 every 10 ms, until stop(). */
  start(perSecond: number): void {
    const each = Math.max(1, Math.round(perSecond / 100));
    this.timer = setInterval(() => {
      for (let k = 0; k < each; k++) void this.append();
    }, 10);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.pending]);
  }

  /** Resolves once `count` more appends have been acknowledged. */
  async more(count: number): Promise<void> {
    const target = this.appends + count;
    while (this.appends < target) await new Promise((r) => setTimeout(r, 5));
  }
}

/** A row of the events table, with its hash-chain link (null before schema 2 chained it). */
export type Row = EventRow & { hash: Buffer | null };

/** Every row of a store file up to `upTo`, in position order (a read-only connection). */
export function rows(file: string, upTo = Number.MAX_SAFE_INTEGER): Row[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare<[number], Row>('SELECT * FROM events WHERE position <= ? ORDER BY position')
      .all(upTo);
  } finally {
    db.close();
  }
}

/** Streams whose revisions are not 0, 1, 2, … or whose count is not 3 + 2k. */
export function tornStreams(all: Row[]): string[] {
  const byStream = new Map<string, number[]>();
  for (const r of all) {
    const revs = byStream.get(r.stream_name) ?? [];
    revs.push(r.revision);
    byStream.set(r.stream_name, revs);
  }
  return [...byStream]
    .filter(([name, revs]) => {
      if (!name.startsWith('session-')) return false;
      const contiguous = revs.every((rev, i) => rev === i);
      return !contiguous || revs.length < 3 || (revs.length - 3) % 2 !== 0;
    })
    .map(([name]) => name);
}
