import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { EventStore } from '@sessionboxer/event-store';
import { openEventStore } from '@sessionboxer/event-store/open-event-store';
import { eventsCommand } from './events.command';
import { passwordCommand } from './password.command';
import { formatReplayReport, replayCommand } from './replay.command';

const USAGE = `usage: sessionboxer <command> [options]

commands:
  events   print or export $all or one stream as JSON lines
           --stream NAME   one stream (e.g. session-<id>); default $all
           --from N        start at this position ($all) or revision (stream), inclusive
           --limit N       at most N events
           --backwards     newest first
           --out FILE      write to FILE instead of stdout
  password set the local account's password (the web UI's sign-in), read from stdin
           --user NAME     the account's name (default: the existing one, else admin)
  replay   rebuild every read model from the event history into a fresh store and report
           whether it equals the live one (exit 0 equal, 3 different)
           --keep FILE     keep the rebuilt read models at FILE
           --json          print the report as JSON

common:
  --data DIR   the data folder (default $SESSIONBOXER_DATA_DIR or ./data)
  EVENTSTORE_URL set: read from EventStoreDB instead of the SQLite file`;

class UsageError extends Error {}

function integer(value: string | undefined, name: string, min: number): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got ${value}`);
  return n;
}

function openStore(dataDir: string): EventStore {
  const sqlitePath = path.join(dataDir, 'events.sqlite');
  const eventStoreUrl = process.env.EVENTSTORE_URL?.trim() || null;
  if (!eventStoreUrl && !fs.existsSync(sqlitePath))
    throw new UsageError(`no event store at ${sqlitePath}`);
  return openEventStore({ eventStoreUrl, sqlitePath, mustExist: true }).store;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      data: { type: 'string' },
      stream: { type: 'string' },
      from: { type: 'string' },
      limit: { type: 'string' },
      backwards: { type: 'boolean', default: false },
      out: { type: 'string' },
      keep: { type: 'string' },
      json: { type: 'boolean', default: false },
      user: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined) {
    console.log(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (command !== 'events' && command !== 'replay' && command !== 'password')
    throw new UsageError(`unknown command ${command}`);
  const dataDir = path.resolve(values.data ?? process.env.SESSIONBOXER_DATA_DIR ?? './data');
  if (command === 'password') {
    console.log(await passwordCommand(dataDir, values.user));
    return 0;
  }
  const store = openStore(dataDir);
  try {
    if (command === 'events') {
      await eventsCommand(store, {
        stream: values.stream ?? null,
        from: integer(values.from, 'from', 0),
        limit: integer(values.limit, 'limit', 1),
        direction: values.backwards ? 'backwards' : 'forwards',
        out: values.out ?? null,
      });
      return 0;
    }
    const report = await replayCommand(store, {
      liveReadModels: path.join(dataDir, 'read-models.sqlite'),
      keep: values.keep ?? null,
    });
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReplayReport(report));
    return report.equal ? 0 : 3;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const usage =
      e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(`sessionboxer: ${e instanceof Error ? e.message : String(e)}`);
    if (usage) console.error('run `sessionboxer --help` for usage');
    process.exit(usage ? 2 : 1);
  },
);
