import {
  ANY,
  END,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type ResolvedEvent,
} from '@eventstore/db-client';
import { ConcurrencyError } from '../event-store.port';
import {
  fromCurrentRevision,
  fromResolvedEvent,
  isStreamNotFound,
  mapAppendError,
  classifyRefusal,
  toAppendExpectedRevision,
  toEventData,
  toReadPosition,
  toReadRevision,
  toSubscriptionStart,
} from './esdb-mapping';

const metadata = {
  commandId: 'c1',
  correlationId: 'c1',
  causationId: 'c1',
  actor: { kind: 'system' as const, id: 'test' },
  at: '2026-01-01T00:00:00.000Z',
};

function resolved(overrides: Record<string, unknown> = {}): ResolvedEvent {
  return {
    event: {
      streamId: 'session-1',
      id: '0b0e6a86-5c4e-4f43-9d43-7c1a3b0f7a11',
      isJson: true,
      revision: 4n,
      type: 'SessionCreated',
      created: new Date('2026-02-03T04:05:06.789Z'),
      data: { a: 1 },
      metadata,
      position: { commit: 1234n, prepare: 1234n },
      ...overrides,
    },
  } as unknown as ResolvedEvent;
}

describe('expected revisions', () => {
  it.each([
    ['any', ANY],
    ['no_stream', NO_STREAM],
    ['stream_exists', STREAM_EXISTS],
    [-1, NO_STREAM],
    [0, 0n],
    [41, 41n],
  ] as const)('maps %p to the client value %p', (ours, theirs) => {
    expect(toAppendExpectedRevision(ours)).toBe(theirs);
  });

  it('reads the current revision back as a number, -1 for no stream', () => {
    expect(fromCurrentRevision(NO_STREAM)).toBe(-1);
    expect(fromCurrentRevision(7n)).toBe(7);
  });
});

describe('read starts', () => {
  it('maps revisions and positions to the client forms', () => {
    expect(toReadRevision('start')).toBe(START);
    expect(toReadRevision('end')).toBe(END);
    expect(toReadRevision(3)).toBe(3n);
    expect(toReadPosition('start')).toBe(START);
    expect(toReadPosition(99)).toEqual({ commit: 99n, prepare: 99n });
  });

  it('treats a subscription from -1 as from the start', () => {
    expect(toSubscriptionStart(-1)).toBe('start');
    expect(toSubscriptionStart(5)).toBe(5);
    expect(toSubscriptionStart('end')).toBe('end');
  });
});

describe('events', () => {
  it('sends our event as a JSON event with the metadata as JSON metadata', () => {
    const data = toEventData({
      id: '0b0e6a86-5c4e-4f43-9d43-7c1a3b0f7a11',
      type: 'T',
      data: { x: 1 },
      metadata,
    });
    expect(data).toMatchObject({
      id: '0b0e6a86-5c4e-4f43-9d43-7c1a3b0f7a11',
      contentType: 'application/json',
      type: 'T',
      data: { x: 1 },
      metadata,
    });
  });

  it('maps a recorded event, its commit position as the position', () => {
    expect(fromResolvedEvent(resolved())).toEqual({
      id: '0b0e6a86-5c4e-4f43-9d43-7c1a3b0f7a11',
      type: 'SessionCreated',
      data: { a: 1 },
      metadata,
      streamName: 'session-1',
      revision: 4,
      position: 1234,
      recordedAt: '2026-02-03T04:05:06.789Z',
    });
  });

  it("shows the metadata without the hash chain's $chain link", () => {
    const link = { seq: 1, prevHash: '00', hash: '11' };
    const e = fromResolvedEvent(resolved({ metadata: { ...metadata, $chain: link } }));
    expect(e?.metadata).toEqual(metadata);
  });

  it('reports -1 when the server sent no position', () => {
    expect(fromResolvedEvent(resolved({ position: undefined }))?.position).toBe(-1);
    const none = { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n };
    expect(fromResolvedEvent(resolved({ position: none }))?.position).toBe(-1);
  });

  it('hides system events, binary events and empty resolutions', () => {
    expect(fromResolvedEvent(resolved({ type: '$metadata' }))).toBeUndefined();
    expect(fromResolvedEvent(resolved({ streamId: '$stats-127.0.0.1:2113' }))).toBeUndefined();
    expect(fromResolvedEvent(resolved({ isJson: false, data: new Uint8Array() }))).toBeUndefined();
    expect(fromResolvedEvent({})).toBeUndefined();
  });
});

describe('errors', () => {
  it('turns a wrong expected version into ConcurrencyError with the actual revision', () => {
    const wev = new WrongExpectedVersionError(undefined, {
      streamName: 'session-1',
      expected: 2n,
      current: 5n,
    });
    const mapped = mapAppendError(wev, 'session-1', 2);
    expect(mapped).toBeInstanceOf(ConcurrencyError);
    expect(mapped).toMatchObject({ streamName: 'session-1', expected: 2, actual: 5 });
  });

  it('reports -1 when the stream did not exist', () => {
    const wev = new WrongExpectedVersionError(undefined, {
      streamName: 'session-1',
      expected: STREAM_EXISTS,
      current: NO_STREAM,
    });
    expect(mapAppendError(wev, 'session-1', 'stream_exists')).toMatchObject({ actual: -1 });
  });

  it('passes other errors on unchanged', () => {
    const other = new UnavailableError();
    expect(mapAppendError(other, 's-1', 'any')).toBe(other);
  });

  it('recognises a missing stream', () => {
    expect(isStreamNotFound(new StreamNotFoundError(undefined, 'session-1'))).toBe(true);
    expect(isStreamNotFound(new UnavailableError())).toBe(false);
  });
});

describe('a refused append, classified from the stream tail', () => {
  const ids = [1, 2, 3, 4].map((n) => `aaaaaaaa-0000-4000-8000-00000000000${n}`);
  const tail = ids.map((id, i) => ({
    ...fromResolvedEvent(resolved({ id, revision: BigInt(i) }))!,
    position: 100 + i,
  }));

  it('is a repeat when the batch is there as consecutive events, ids in any case', () => {
    const batch = [{ id: ids[1].toUpperCase() }, { id: ids[2] }];
    expect(classifyRefusal(batch, tail)).toEqual({
      kind: 'repeat',
      nextExpectedRevision: 2,
      position: 102,
    });
  });

  it('reuses ids when only some are there, or not in that order', () => {
    const fresh = 'bbbbbbbb-0000-4000-8000-000000000001';
    expect(classifyRefusal([{ id: ids[3] }, { id: fresh }], tail)).toEqual({
      kind: 'reused-ids',
      count: 1,
    });
    expect(classifyRefusal([{ id: ids[2] }, { id: ids[1] }], tail)).toEqual({
      kind: 'reused-ids',
      count: 2,
    });
  });

  it('is a plain conflict when none of the ids are there', () => {
    expect(classifyRefusal([{ id: 'bbbbbbbb-0000-4000-8000-000000000001' }], tail)).toEqual({
      kind: 'conflict',
    });
  });
});
