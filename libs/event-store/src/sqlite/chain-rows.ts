/**
 * The events as the chain hashed them, read for `verify` and exports, which read every one.
 *
 * Text, not blobs: better-sqlite3 makes each blob a Buffer on a slow path (measured: 17-20 µs a
 * row with data, metadata, hash and salts as blobs, 4-5 µs with them as text and hex), so the
 * hash and salts come as hex and become Buffers here, and schema 3's data and the metadata as
 * text (their commitment re-encodes them, scanning the data's bytes: chain/json-scan.ts).
 * Decoding maps bytes that are not UTF-8 to U+FFFD, which would hide a change to the
 * metadata's bytes (committed as they are stored): a row whose metadata has U+FFFD in it is
 * read again as bytes. Schema 2's data is hashed as its stored bytes, so it comes as a blob.
 */
import type Database from 'better-sqlite3';
import type { ChainedEvent } from '../chain/canonical';

// A value the attacker stored as a blob comes as a Buffer, whatever the column says.
type Row = [
  number,
  string,
  number,
  string,
  string,
  string | Buffer,
  string | Buffer,
  string,
  string,
  string,
];

export class ChainRows {
  private readonly page: Database.Statement<[number, number], Row>;
  private readonly metadataBytes: Database.Statement<[number], Buffer>;

  constructor(db: Database.Database) {
    this.page = db
      .prepare<[number, number], Row>(
        `SELECT position, stream_name, revision, event_id, type,
           CASE WHEN salts IS NULL THEN CAST(data AS BLOB) ELSE data END,
           metadata, recorded_at, hex(hash), hex(salts)
         FROM events WHERE position >= ? ORDER BY position LIMIT ?`,
      )
      .raw();
    this.metadataBytes = db
      .prepare<[number], Buffer>('SELECT CAST(metadata AS BLOB) FROM events WHERE position = ?')
      .pluck();
  }

  /** Up to `limit` events from `from` on, in position order. */
  read(from: number, limit: number): ChainedEvent[] {
    const rows = this.page.all(from, limit);
    const events = new Array<ChainedEvent>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const [position, streamName, revision, id, type, data, text, recordedAt, hash, salts] =
        rows[i];
      const metadata =
        typeof text === 'string' && text.includes('\uFFFD')
          ? (this.metadataBytes.get(position) as Buffer)
          : text;
      events[i] = {
        position,
        streamName,
        revision,
        id,
        type,
        data,
        metadata,
        recordedAt,
        hash: hash === '' ? null : Buffer.from(hash, 'hex'),
        salts: salts === '' ? null : Buffer.from(salts, 'hex'),
      };
    }
    return events;
  }
}
