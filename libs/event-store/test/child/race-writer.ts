/**
 * Child process for the multi-process test (multi-process.int.ts), started with `fork`: it
 * opens the store file, says `ready`, waits for `go` so every process starts at once, runs
 * its part, sends its report and exits. With RACE_DIGEST_THREAD=on its store takes its
 * digests from the digest thread (chain/digest-thread.ts) from the first append.
 *
 *  - `append <file> <writers> <appends> <streams...>`: `writers` concurrent loops, each
 *    appending `appends` two-event batches to a random one of `streams` at the revision it read
 *    just before, reading again after each ConcurrencyError (the loser of a race).
 *  - `repeat <file> <stream> <ids...>`: appends one batch with exactly these event ids (the
 *    same append made by several processes at once: idempotency across processes).
 *  - `take <file> <stream> <commands>`: `commands` concurrent commands through a CommandHandler
 *    whose decider lets at most PLACES of them take a place on the stream.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode, type Command, type Decider } from '@sessionboxer/domain';
import { CommandHandler, ConcurrencyError, type NewEvent } from '@sessionboxer/event-store';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { DigestThread } from '@sessionboxer/event-store/chain/digest-thread';
import { PLACES, type RaceReport } from './race-protocol';

type Take = Command<'TakePlace', { taker: string }>;
type Taken = { type: 'PlaceTaken'; data: { taker: string } };

/** The rule under test: at most PLACES places on a stream, decided from its folded state. */
const placesDecider: Decider<Take, Taken, number> = {
  initialState: 0,
  evolve: (taken) => taken + 1,
  decide: (command, taken) => {
    if (taken >= PLACES) throw new DomainError(ErrorCode.LimitReached, `at most ${PLACES}`);
    return [{ type: 'PlaceTaken', data: { taker: command.data.taker } }];
  },
};

const actor = { kind: 'system', id: 'race' } as const;

function newEvent(id: string, n: number): NewEvent {
  const at = new Date().toISOString();
  const metadata = { commandId: id, correlationId: id, causationId: id, actor, at };
  return { id, type: 'Raced', data: { n, pid: process.pid }, metadata };
}

async function appendLoop(
  store: SqliteEventStore,
  streams: string[],
  appends: number,
  report: RaceReport,
): Promise<void> {
  for (let n = 0; n < appends;) {
    const stream = streams[Math.floor(Math.random() * streams.length)];
    const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const events = [newEvent(randomUUID(), n), newEvent(randomUUID(), n)];
    try {
      const r = await store.appendToStream(stream, events, {
        expectedRevision: last === undefined ? 'no_stream' : last.revision,
      });
      const ids = events.map((e) => e.id);
      report.appended.push({ stream, ids, position: r.position, revision: r.nextExpectedRevision });
      n++;
    } catch (e) {
      if (!(e instanceof ConcurrencyError)) throw e;
      report.refused++;
    }
  }
}

async function takeOne(handler: CommandHandler, stream: string, report: RaceReport): Promise<void> {
  const commandId = randomUUID();
  const command: Take = {
    type: 'TakePlace',
    data: { taker: `${process.pid}/${commandId}` },
    metadata: { commandId, at: new Date().toISOString(), actor },
  };
  try {
    const r = await handler.handle(placesDecider, stream, command);
    const ids = r.events.map((e) => e.id);
    report.appended.push({ stream, ids, position: r.position ?? -1, revision: r.revision });
  } catch (e) {
    if (!(e instanceof DomainError) || e.code !== ErrorCode.LimitReached) throw e;
    report.refused++;
  }
}

async function run(
  store: SqliteEventStore,
  [mode, ...args]: string[],
  report: RaceReport,
): Promise<void> {
  if (mode === 'append') {
    const [writers, appends, ...streams] = args;
    const loops = Array.from({ length: Number(writers) }, () =>
      appendLoop(store, streams, Number(appends), report),
    );
    await Promise.all(loops);
  } else if (mode === 'repeat') {
    const [stream, ...ids] = args;
    const r = await store.appendToStream(
      stream,
      ids.map((id, n) => newEvent(id, n)),
    );
    report.appended.push({ stream, ids, position: r.position, revision: r.nextExpectedRevision });
  } else if (mode === 'take') {
    const [stream, commands] = args;
    const handler = new CommandHandler(store);
    await Promise.all(
      Array.from({ length: Number(commands) }, () => takeOne(handler, stream, report)),
    );
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
}

async function main(): Promise<void> {
  const [mode, file, ...args] = process.argv.slice(2);
  // RACE_DIGEST_THREAD=on: every process hashes ahead on its own digest thread, ready first.
  const digestThread = process.env.RACE_DIGEST_THREAD === 'on' ? 'on' : 'auto';
  const store = SqliteEventStore.open({ path: file, digestThread });
  if (digestThread === 'on') {
    const thread = DigestThread.acquire();
    await thread.ready;
    thread.release();
  }
  const report: RaceReport = { pid: process.pid, appended: [], refused: 0, errors: [] };
  await new Promise<void>((go) => {
    process.once('message', () => go());
    process.send?.('ready');
  });
  try {
    await run(store, [mode, ...args], report);
  } catch (e) {
    report.errors.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
  await store.close();
  await new Promise<void>((sent) => process.send?.(report, () => sent()));
  process.disconnect();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
