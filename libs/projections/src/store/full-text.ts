/**
 * The SQL of a projection's full-text index (FullTextIndex): an FTS5 table whose content is a
 * view over the document table, kept by triggers on that table, so every document write (the
 * runner's, a rebuild's, in their transaction with the checkpoint) updates it too. And the
 * query side: what a person typed, read as plain words, never as FTS5's syntax.
 */
import type { FullTextColumn, FullTextIndex } from '../projection';
import type { FullTextHit, FullTextQuery, TextPart } from './read-model-store';

const COLUMN = /^[a-z][a-z0-9_]*$/;
const PATH = /^\$(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/** Marks around a match in a snippet; the indexed text must not hold these two characters. */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** Most words taken from a query: more say nothing more and only cost time. */
export const QUERY_TERMS_MAX = 16;

export interface FullTextTables {
  /** The FTS5 table. */
  fts: string;
  /** The view it reads its content from (rowid and each column's field). */
  view: string;
}

export function fullTextTables(projectionName: string): FullTextTables {
  return { fts: `fts_${projectionName}`, view: `ftsv_${projectionName}` };
}

/** A column name or JSON path that cannot go into SQL as it is is the projection's bug. */
export function checkPath(path: string): string {
  if (!PATH.test(path)) throw new Error(`bad JSON path ${JSON.stringify(path)}: use $.field`);
  return path;
}

function checkColumns(index: FullTextIndex): readonly FullTextColumn[] {
  if (index.columns.length === 0) throw new Error('a full-text index needs a column');
  for (const c of index.columns) {
    if (!COLUMN.test(c.name)) throw new Error(`bad full-text column ${JSON.stringify(c.name)}`);
    checkPath(c.path);
  }
  return index.columns;
}

/** Drops whatever index a projection had (none is fine). */
export function dropFullTextSql(projectionName: string): string {
  const { fts, view } = fullTextTables(projectionName);
  return `DROP TABLE IF EXISTS ${fts}; DROP VIEW IF EXISTS ${view};`;
}

/** The view, the FTS5 table and the three triggers on `table` (the projection's documents). */
export function createFullTextSql(
  projectionName: string,
  table: string,
  index: FullTextIndex,
): string {
  const columns = checkColumns(index);
  const { fts, view } = fullTextTables(projectionName);
  const names = columns.map((c) => c.name).join(', ');
  const values = (row: string) =>
    columns.map((c) => `json_extract(${row}.doc, '${c.path}')`).join(', ');
  const has = (row: string) =>
    columns.map((c) => `json_extract(${row}.doc, '${c.path}') IS NOT NULL`).join(' OR ');
  const fields = columns.map((c) => `json_extract(doc, '${c.path}') AS ${c.name}`).join(', ');
  const remove = (row: string) =>
    `INSERT INTO ${fts} (${fts}, rowid, ${names}) SELECT 'delete', ${row}.rowid, ${values(row)}`;
  const add = (row: string) =>
    `INSERT INTO ${fts} (rowid, ${names}) SELECT ${row}.rowid, ${values(row)}`;
  // The 'delete' of an external-content table must be given the values it indexed: the old
  // row's fields, computed the same way. An update removes the old text, then adds the new.
  return `
    CREATE VIEW ${view} AS SELECT rowid AS rid, ${fields} FROM ${table};
    CREATE VIRTUAL TABLE ${fts} USING fts5(${names}, content='${view}', content_rowid='rid',
      tokenize='unicode61 remove_diacritics 2');
    CREATE TRIGGER ${table}_fts_insert AFTER INSERT ON ${table} BEGIN
      ${add('new')} WHERE ${has('new')}; END;
    CREATE TRIGGER ${table}_fts_delete AFTER DELETE ON ${table} BEGIN
      ${remove('old')} WHERE ${has('old')}; END;
    CREATE TRIGGER ${table}_fts_update AFTER UPDATE OF doc ON ${table} BEGIN
      ${remove('old')} WHERE ${has('old')};
      ${add('new')} WHERE ${has('new')}; END;`;
}

/**
 * An FTS5 expression for what a person typed: its words (letters, digits and marks, as the
 * unicode61 tokenizer splits them), each quoted as a string so nothing in it is syntax (AND,
 * NEAR, ", *, ^, column filters), all required, the last one also as a prefix (the word being
 * typed). Null when there is no word in it.
 */
export function matchExpression(text: string): string | null {
  const words = (text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? []).slice(0, QUERY_TERMS_MAX);
  if (words.length === 0) return null;
  const quoted = words.map((w) => `"${w.replaceAll('"', '""')}"`);
  quoted[quoted.length - 1] += '*';
  return quoted.join(' ');
}

/** The statement of a search: `where` holds the paths that must equal a bound value. */
export function searchSql(
  projectionName: string,
  table: string,
  index: FullTextIndex,
  where: readonly string[],
): string {
  const { fts } = fullTextTables(projectionName);
  const weights = index.columns.map((c) => String(c.weight ?? 1)).join(', ');
  const filters = where.map(
    (path, i) => ` AND json_extract(d.doc, '${checkPath(path)}') IS @w${i}`,
  );
  return `SELECT d.id, d.partition, d.ord, d.doc, bm25(${fts}, ${weights}) AS rank,
      snippet(${fts}, -1, char(2), char(3), '…', @tokens) AS snippet
    FROM ${fts} JOIN ${table} d ON d.rowid = ${fts}.rowid
    WHERE ${fts} MATCH @match${filters.join('')}
    ORDER BY rank, d.ord DESC, d.id LIMIT @limit`;
}

export function snippetParts(snippet: string | null): TextPart[] {
  const parts: TextPart[] = [];
  let match = false;
  let text = '';
  const cut = () => {
    if (text !== '') parts.push({ text, match });
    text = '';
  };
  for (const ch of snippet ?? '') {
    if (ch === MATCH_START || ch === MATCH_END) {
      cut();
      match = ch === MATCH_START;
    } else text += ch;
  }
  cut();
  return parts;
}

/** The bound values of searchSql's statement. */
export function searchParams(match: string, query: FullTextQuery): Record<string, unknown> {
  const tokens = Math.min(Math.max(1, Math.trunc(query.snippetTokens ?? 12)), 64);
  const where = query.where ?? [];
  const bound = Object.fromEntries(where.map((w, i) => [`w${i}`, sqlValue(w.equals)]));
  return { match, limit: Math.trunc(query.limit), tokens, ...bound };
}

interface HitRow {
  id: string;
  partition: string;
  ord: number;
  doc: string;
  rank: number;
  snippet: string | null;
}

export function searchHits<Doc>(rows: unknown[]): FullTextHit<Doc>[] {
  return (rows as HitRow[]).map((r) => ({
    id: r.id,
    partition: r.partition,
    order: r.ord,
    doc: JSON.parse(r.doc) as Doc,
    rank: r.rank,
    snippet: snippetParts(r.snippet),
  }));
}

/** JSON scalars as SQLite compares them to json_extract's result (true is 1). */
function sqlValue(value: string | number | boolean | null): string | number | null {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}
