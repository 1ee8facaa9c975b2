/**
 * The subscription wrapper over a stand-in for the client's subscription stream (an object-mode
 * PassThrough whose unsubscribe() behaves like the client's: it does not end the stream).
 */
import { PassThrough } from 'node:stream';
import type { ResolvedEvent } from '@eventstore/db-client';
import { EsdbSubscription, type ClientSubscription } from './esdb-subscription';

function source(): PassThrough & ClientSubscription & { unsubscribed: boolean } {
  const stream = new PassThrough({ objectMode: true }) as PassThrough &
    ClientSubscription & { unsubscribed: boolean };
  stream.unsubscribed = false;
  stream.unsubscribe = () => {
    stream.unsubscribed = true;
    return Promise.resolve();
  };
  return stream;
}

function event(revision: number, type = 'Happened'): ResolvedEvent {
  return {
    event: {
      streamId: 'session-1',
      id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
      isJson: true,
      revision: BigInt(revision),
      type,
      created: new Date(0),
      data: {},
      metadata: {},
      position: { commit: BigInt(revision * 10), prepare: BigInt(revision * 10) },
    },
  } as unknown as ResolvedEvent;
}

it('yields user events in order and skips system ones', async () => {
  const src = source();
  const sub = new EsdbSubscription(src);
  src.write(event(0));
  src.write(event(1, '$metadata'));
  src.write(event(2));
  const it = sub[Symbol.asyncIterator]();
  expect((await it.next()).value).toMatchObject({ revision: 0, position: 0 });
  expect((await it.next()).value).toMatchObject({ revision: 2, position: 20 });
  await sub.close();
});

it('close() ends an iteration that is waiting, and unsubscribes', async () => {
  const src = source();
  let closedCalls = 0;
  const sub = new EsdbSubscription(src, () => closedCalls++);
  const pending = sub[Symbol.asyncIterator]().next();
  await sub.close();
  await expect(pending).resolves.toEqual({ value: undefined, done: true });
  expect(src.unsubscribed).toBe(true);
  expect(src.destroyed).toBe(true);
  await sub.close();
  expect(closedCalls).toBe(1);
});

it('ends when the source ends, and reports a source error to the reader', async () => {
  const ended = source();
  const sub = new EsdbSubscription(ended);
  ended.end();
  await expect(sub[Symbol.asyncIterator]().next()).resolves.toMatchObject({ done: true });

  const failing = source();
  const failingSub = new EsdbSubscription(failing);
  failing.destroy(new Error('connection lost'));
  await expect(failingSub[Symbol.asyncIterator]().next()).rejects.toThrow('connection lost');
  await failingSub.close();
});
