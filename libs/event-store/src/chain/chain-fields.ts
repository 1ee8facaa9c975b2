/**
 * What the chain commits to for one event (data and metadata as stored, not re-serialised):
 * text, or its UTF-8 bytes as SQLite hands them over (the same encoding, no decoding on the
 * way: that is where verify spends its time). Used by canonical.ts and commitment.ts both.
 */
export interface ChainFields {
  position: number;
  streamName: string;
  revision: number;
  id: string;
  type: string;
  data: string | Buffer;
  metadata: string | Buffer;
  recordedAt: string;
  /** Schema 3: the salts of its commitments (commitment.ts); null or absent: schema 2. */
  salts?: Buffer | null;
}
