import * as fs from 'node:fs';
import type { EventStore, RecordedEvent } from '@sessionboxer/event-store';

export interface EventsOptions {
  stream: string | null;
  /** Inclusive position ($all) or revision (stream). */
  from: number | null;
  limit: number | null;
  direction: 'forwards' | 'backwards';
  /** A file to write the JSON lines to; stdout when null. */
  out: string | null;
}

const PAGE = 1000;

/** Prints or exports `$all` or one stream as JSON lines, one event a line, in pages. */
export async function eventsCommand(store: EventStore, options: EventsOptions): Promise<number> {
  const sink = options.out ? fs.createWriteStream(options.out) : process.stdout;
  let written = 0;
  let from: number | 'start' | 'end' =
    options.from ?? (options.direction === 'forwards' ? 'start' : 'end');
  for (;;) {
    const want = Math.min(PAGE, options.limit === null ? PAGE : options.limit - written);
    if (want <= 0) break;
    const page = await readPage(store, options, from, want);
    for (const event of page) {
      if (!sink.write(`${JSON.stringify(event)}\n`)) await drained(sink);
    }
    written += page.length;
    if (page.length < want) break;
    const last = page[page.length - 1];
    const key = options.stream ? last.revision : last.position;
    from = options.direction === 'forwards' ? key + 1 : key - 1;
    if (from < 0) break;
  }
  if (sink !== process.stdout)
    await new Promise<void>((resolve) => (sink as fs.WriteStream).end(resolve));
  process.stderr.write(`${written} events${options.out ? ` written to ${options.out}` : ''}\n`);
  return written;
}

function readPage(
  store: EventStore,
  options: EventsOptions,
  from: number | 'start' | 'end',
  maxCount: number,
): Promise<RecordedEvent[]> {
  const direction = options.direction;
  return options.stream
    ? store.readStream(options.stream, { direction, fromRevision: from, maxCount })
    : store.readAll({ direction, fromPosition: from, maxCount });
}

function drained(sink: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => sink.once('drain', () => resolve()));
}
