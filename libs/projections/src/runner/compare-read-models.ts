import { isDeepStrictEqual } from 'node:util';
import type { Checkpoint, StoredDocument } from '../store/read-model-store';
import type { SqliteReadModelStore } from '../store/sqlite-read-model-store';

/** How one read model differs between two stores. Id lists are capped; counts are not. */
export interface ProjectionDifferences {
  projection: string;
  equal: boolean;
  checkpoints: { a: Checkpoint | null; b: Checkpoint | null };
  onlyInA: string[];
  onlyInB: string[];
  /** Ids present in both whose document, partition or order differ. */
  changed: string[];
  counts: { onlyInA: number; onlyInB: number; changed: number };
}

export interface ReadModelComparison {
  equal: boolean;
  projections: ProjectionDifferences[];
}

const LISTED = 20;

/**
 * Compares two read-model stores document by document, per projection (every projection
 * either has a checkpoint for). Documents are compared as values, not as JSON text, so key order
 * does not count.
 */
export function compareReadModels(
  a: SqliteReadModelStore,
  b: SqliteReadModelStore,
): ReadModelComparison {
  const names = new Set([...a.checkpoints(), ...b.checkpoints()].map((c) => c.projection));
  const projections = [...names].sort().map((name) => compareOne(a, b, name));
  return { equal: projections.every((p) => p.equal), projections };
}

function compareOne(
  a: SqliteReadModelStore,
  b: SqliteReadModelStore,
  name: string,
): ProjectionDifferences {
  const checkpoints = { a: a.checkpoint(name), b: b.checkpoint(name) };
  const diff = { onlyInA: [] as string[], onlyInB: [] as string[], changed: [] as string[] };
  const counts = { onlyInA: 0, onlyInB: 0, changed: 0 };
  const note = (kind: keyof typeof counts, id: string) => {
    counts[kind] += 1;
    if (diff[kind].length < LISTED) diff[kind].push(id);
  };
  if (checkpoints.a !== null && checkpoints.b !== null) {
    mergeById(a.scan(name), b.scan(name), (id, x, y) => {
      if (x === undefined) note('onlyInB', id);
      else if (y === undefined) note('onlyInA', id);
      else if (!sameDocument(x, y)) note('changed', id);
    });
  }
  const sameCheckpoint =
    checkpoints.a?.version === checkpoints.b?.version &&
    checkpoints.a?.position === checkpoints.b?.position &&
    checkpoints.a !== null &&
    checkpoints.b !== null;
  const equal = sameCheckpoint && counts.onlyInA + counts.onlyInB + counts.changed === 0;
  return { projection: name, equal, checkpoints, ...diff, counts };
}

function sameDocument(x: StoredDocument<unknown>, y: StoredDocument<unknown>): boolean {
  return x.partition === y.partition && x.order === y.order && isDeepStrictEqual(x.doc, y.doc);
}

type Doc = StoredDocument<unknown>;

/** Walks two id-ordered scans together, calling `visit` with the pair (or the lone one). */
function mergeById(
  as: Iterator<Doc, unknown>,
  bs: Iterator<Doc, unknown>,
  visit: (id: string, a: Doc | undefined, b: Doc | undefined) => void,
): void {
  let x = as.next();
  let y = bs.next();
  for (;;) {
    const left = x.done === true ? undefined : x.value;
    const right = y.done === true ? undefined : y.value;
    if (left === undefined && right === undefined) return;
    const order = left === undefined ? 1 : right === undefined ? -1 : compareIds(left.id, right.id);
    const id = order <= 0 ? left?.id : right?.id;
    visit(id ?? '', order <= 0 ? left : undefined, order >= 0 ? right : undefined);
    if (order <= 0) x = as.next();
    if (order >= 0) y = bs.next();
  }
}

/** SQLite orders TEXT by UTF-8 bytes; JavaScript's `<` by UTF-16 units. Use SQLite's order. */
function compareIds(x: string, y: string): number {
  return Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8'));
}
