/**
 * Schema 2 and 3 links are what stores and bundles already hold, so their encoding must never
 * change: these digests and hashes were computed by the first implementation (JSON.parse and a
 * walk over the value) and are recomputed here, text and bytes alike, over data in the form
 * the store writes and in every other form JSON allows (the byte scan gives those up to the
 * parser). Text JSON refuses must still fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainHash, eventDigest, GENESIS_HASH } from '@sessionboxer/event-store/chain';
import {
  commitNew,
  eventLink,
  GENESIS_TEXT,
  linkNew,
} from '@sessionboxer/event-store/chain/commitment';

interface Vector {
  dataKind: 'text' | 'hex';
  data: string;
  seed: number;
  salts: string;
  digest?: string;
  error?: string;
  hash?: string;
  hashBuffer?: string;
}

const fixture = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'commitment-v3.json'), 'utf8'),
) as {
  metadata: string;
  streamName: string;
  v3: Vector[];
  v2: { data: string; hash: string }[];
};

function fields(v: Vector, asBytes: boolean) {
  const text = v.dataKind === 'hex' ? Buffer.from(v.data, 'hex') : v.data;
  return {
    position: v.seed,
    streamName: fixture.streamName,
    revision: v.seed % 5,
    id: `id-${v.seed}`,
    type: 'T',
    data: asBytes || typeof text !== 'string' ? Buffer.from(text) : text,
    metadata: asBytes ? Buffer.from(fixture.metadata) : fixture.metadata,
    recordedAt: '2026-12-02T00:00:00.000Z',
    salts: Buffer.from(v.salts, 'hex'),
  };
}

describe('schema 3 commitments', () => {
  it.each(fixture.v3.map((v) => [v.data.slice(0, 60), v] as const))(
    'are what they were for %s',
    (_, v) => {
      for (const asBytes of [false, true]) {
        const e = fields(v, asBytes);
        if (v.digest === undefined) {
          expect(() => eventDigest(e, e.salts)).toThrow();
          expect(() => chainHash(GENESIS_HASH, e)).toThrow();
        } else {
          expect(eventDigest(e, e.salts).toString('hex')).toBe(v.digest);
          expect(chainHash(GENESIS_HASH, e).toString('hex')).toBe(v.hash);
        }
      }
    },
  );

  it('made for a new event, verify from the salts it stored', () => {
    for (const v of fixture.v3.filter((x) => x.digest !== undefined && x.dataKind === 'text')) {
      const e = { ...fields(v, false), data: v.data, metadata: fixture.metadata };
      const { salts, digest } = commitNew(e);
      expect(eventDigest({ ...e, data: Buffer.from(v.data) }, salts)).toEqual(digest);
    }
  });

  it('linked on the write path (latin1 text, no Buffer), are the links verify recomputes', () => {
    let prev = GENESIS_TEXT;
    const hashOut = Buffer.alloc(32);
    for (const v of fixture.v3.filter((x) => x.digest !== undefined && x.dataKind === 'text')) {
      const e = { ...fields(v, false), data: v.data, metadata: fixture.metadata };
      const { salts, hash } = linkNew(prev, e, hashOut);
      const expected = eventLink(
        Buffer.from(prev, 'latin1'),
        { ...e, data: Buffer.from(v.data) },
        salts,
      );
      expect(Buffer.from(hash, 'latin1')).toEqual(expected);
      expect(hashOut).toEqual(expected);
      prev = hash;
    }
  });
});

describe('schema 2 links', () => {
  it('are what they were', () => {
    fixture.v2.forEach(({ data, hash }, i) => {
      const e = {
        position: i + 1,
        streamName: 's',
        revision: i,
        id: 'x',
        type: 'T',
        data,
        metadata: fixture.metadata,
        recordedAt: 'r',
      };
      expect(chainHash(GENESIS_HASH, e).toString('hex')).toBe(hash);
    });
  });
});
