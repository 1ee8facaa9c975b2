import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { EventStore } from '@sessionboxer/event-store';
import { auditKeyPath } from '@sessionboxer/event-store/chain';
import { openEventStore } from '@sessionboxer/event-store/open-event-store';
import { backupCommand, formatBackupReport } from './backup.command';
import { confirm } from './confirm';
import { eventsCommand } from './events.command';
import { exportCommand, formatExport } from './export.command';
import { LOGIN_USAGE, loginCommand } from './login.command';
import { passwordCommand } from './password.command';
import { formatReplay, policyReplayCommand } from './policy-replay.command';
import { formatReplayReport, replayCommand } from './replay.command';
import { formatRestoreReport, restoreCommand } from './restore.command';
import { SANDBOX_USAGE, sandboxCommand } from './sandbox.command';
import { stateCommand } from './state.command';
import { EVENTS_FILE, resolveDataDir } from './store-files';
import {
  formatVerifyReport,
  publicKeyFile,
  verifyBundleCommand,
  verifyStoreCommand,
} from './verify.command';

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
  verify   recompute the event history's hash chain and check every signed checkpoint; names
           the first event altered, removed or reordered (exit 0 intact, 1 not)
           --bundle FILE   verify an exported bundle instead, offline
           --public-key F  the installation's public key (default: the audit key's .pub)
           --json          print the report as JSON
  export   write an audit bundle (JSON lines, manifest last, head signed): the whole history,
           or one session's events, the others by digest only
           --out FILE      the bundle file (required)
           --session ID    only this session's events
           --family        with --session: its children's too
           --redact        hide credentials, secrets, tokens and sign-in data (still verifies)
  policy-replay  every recorded sessionboxer tool call and egress connection a candidate policy
           would have refused (or asked a person for), and why (exit 0)
           --policy FILE   JSON: {"agentTools"?, "sessionCreation"?, "egressAllow"?: [host:port…]}
           --session ID    only this session's
           --json          print the report as JSON
  state ID a session's state and whole transcript as they were at a point, as JSON
           --position N    at this global position (inclusive)
           --time ISO      at this time (the events recorded up to it)
  backup FILE   copy the SQLite event store to FILE while the control plane runs (online backup)
           --force         overwrite FILE when it exists
  restore FILE  replace the event store with the backup FILE (the control plane stopped), after
           checking it (schema, hash chain, signed checkpoints); the old store is moved to
           <data>/replaced-<time>/, the read models are rebuilt
           --yes           do not ask for confirmation
           --public-key F  the key checking the backup's checkpoints (default: the audit key's .pub)
${LOGIN_USAGE}
${SANDBOX_USAGE}

common:
  --data DIR   the data folder (default $SESSIONBOXER_DATA_DIR or ./data)
  SESSIONBOXER_AUDIT_KEY  the signing key (default <data>.audit-key, beside the data folder)
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
  if (argv[0] === 'sandbox' || argv[0] === 'env' || argv[0] === 'agent')
    return sandboxCommand(argv[0], argv.slice(1));
  if (argv[0] === 'login') return loginCommand(argv.slice(1));
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
      bundle: { type: 'string' },
      'public-key': { type: 'string' },
      session: { type: 'string' },
      family: { type: 'boolean', default: false },
      redact: { type: 'boolean', default: false },
      policy: { type: 'string' },
      force: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
      position: { type: 'string' },
      time: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined) {
    console.log(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const commands = [
    'events',
    'replay',
    'password',
    'verify',
    'export',
    'backup',
    'restore',
    'state',
    'policy-replay',
  ];
  if (!commands.includes(command)) throw new UsageError(`unknown command ${command}`);
  const data = resolveDataDir(values.data);
  const dataDir = data.dir;
  if (command === 'backup' || command === 'restore') {
    const file = positionals[1];
    if (!file) throw new UsageError(`${command} needs a FILE`);
    if (process.env.EVENTSTORE_URL?.trim())
      throw new UsageError(`${command} is for the embedded SQLite store: EventStoreDB has its own`);
    console.error(`data folder: ${dataDir} (from ${data.from})`);
    if (command === 'backup') {
      const source = path.join(dataDir, EVENTS_FILE);
      const dest = path.resolve(file);
      console.log(formatBackupReport(await backupCommand({ source, dest, force: values.force })));
      return 0;
    }
    const report = await restoreCommand({
      backup: path.resolve(file),
      dataDir,
      publicKey: publicKeyFile(values['public-key'] ?? null, auditKeyPath(dataDir)),
      confirm: (question) => confirm(question, values.yes),
    });
    console.log(formatRestoreReport(report, dataDir));
    return 0;
  }
  if (command === 'password') {
    console.log(await passwordCommand(dataDir, values.user));
    return 0;
  }
  const keyFile = auditKeyPath(dataDir);
  if (command === 'verify' && values.bundle) {
    const report = await verifyBundleCommand(
      values.bundle,
      publicKeyFile(values['public-key'] ?? null, keyFile),
    );
    console.log(values.json ? JSON.stringify(report, null, 2) : formatVerifyReport(report));
    return report.ok ? 0 : 1;
  }
  const store = openStore(dataDir);
  try {
    if (command === 'verify') {
      const key = publicKeyFile(values['public-key'] ?? null, keyFile);
      const sqlite = process.env.EVENTSTORE_URL?.trim()
        ? null
        : path.join(dataDir, 'events.sqlite');
      const report = await verifyStoreCommand(store, key, dataDir, sqlite);
      console.log(values.json ? JSON.stringify(report, null, 2) : formatVerifyReport(report));
      return report.ok ? 0 : 1;
    }
    if (command === 'export') {
      if (!values.out) throw new UsageError('export needs --out FILE');
      if (values.family && !values.session) throw new UsageError('--family needs --session ID');
      const m = await exportCommand(store, {
        out: values.out,
        keyFile,
        dataDir,
        session: values.session ?? null,
        family: values.family,
        redact: values.redact,
      });
      console.log(formatExport(m, values.out));
      return 0;
    }
    if (command === 'policy-replay') {
      if (!values.policy) throw new UsageError('policy-replay needs --policy FILE');
      const r = await policyReplayCommand(store, values.policy, values.session ?? null);
      console.log(values.json ? JSON.stringify(r, null, 2) : formatReplay(r));
      return 0;
    }
    if (command === 'state') {
      if (!positionals[1]) throw new UsageError('state needs a session id');
      const state = await stateCommand(store, positionals[1], values.position, values.time);
      console.log(JSON.stringify(state, null, 2));
      return state.session.status === 'absent' ? 4 : 0;
    }
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
