import { randomUUID } from 'node:crypto';
import { chainHash, GENESIS_HASH } from '../chain/canonical';
import { CHAIN_KEY, chainAppend, esdbLinkProblem, headOf, type EsdbHead } from './esdb-chain';

function serialized(n: number) {
  return {
    id: randomUUID(),
    type: 'Noted',
    data: JSON.stringify({ n }),
    metadata: JSON.stringify({ commandId: 'c', actor: { kind: 'system', id: 't' }, at: 'x' }),
  };
}

/** The event as EventStoreDB would give it back: parsed JSON, the link in its metadata. */
function readBack(
  streamName: string,
  revision: number,
  e: ReturnType<typeof serialized>,
  link: object,
) {
  return {
    streamName,
    revision,
    id: e.id,
    type: e.type,
    data: JSON.parse(e.data) as unknown,
    metadata: { ...(JSON.parse(e.metadata) as object), [CHAIN_KEY]: link },
  };
}

describe('the EventStoreDB chain (pure part)', () => {
  it('chains an append from the head, numbering links on, with the canonical encoding', () => {
    const events = [serialized(1), serialized(2)];
    const [a, b] = chainAppend(null, 'notes-1', 0, events);
    expect(a).toMatchObject({ seq: 1, prevHash: GENESIS_HASH.toString('hex') });
    expect(b).toMatchObject({ seq: 2, prevHash: a.hash });
    const expected = chainHash(GENESIS_HASH, {
      position: 1,
      streamName: 'notes-1',
      revision: 0,
      ...events[0],
      recordedAt: '',
      salts: Buffer.from(a.salts ?? '', 'base64'),
    });
    expect(a.hash).toBe(expected.toString('hex'));
    const head = headOf({ [CHAIN_KEY]: b });
    const [c] = chainAppend(head, 'notes-2', 5, [serialized(3)]);
    expect(c).toMatchObject({ seq: 3, prevHash: b.hash });
  });

  it('finds a read-back event that follows its head, and names one that was changed or skipped', () => {
    const events = [serialized(1), serialized(2)];
    const links = chainAppend(null, 's', 0, events);
    const back = events.map((e, i) => readBack('s', i, e, links[i]));
    const afterFirst: EsdbHead = headOf(back[0].metadata);
    expect(esdbLinkProblem(null, back[0])).toBeNull();
    expect(esdbLinkProblem(afterFirst, back[1])).toBeNull();
    expect(esdbLinkProblem(afterFirst, { ...back[1], data: { n: 3 } })).toBe('hash mismatch');
    expect(esdbLinkProblem(null, back[1])).toMatch(/link 2 where 1 was due/);
    expect(esdbLinkProblem(null, { ...back[0], metadata: {} })).toMatch(/no \$chain link/);
    // A schema-2 link (no salts) still checks out the old way.
    const v2 = { seq: 1, prevHash: GENESIS_HASH.toString('hex') };
    const e = events[0];
    const old = chainHash(GENESIS_HASH, {
      position: 1,
      streamName: 's',
      revision: 0,
      ...e,
      recordedAt: '',
    });
    const linked = readBack('s', 0, e, { ...v2, hash: old.toString('hex') });
    expect(esdbLinkProblem(null, linked)).toBeNull();
  });
});
