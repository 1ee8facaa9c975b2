/**
 * Crash safety of the SQLite adapter: a writer process is killed with SIGKILL at random moments,
 * 20 times over the same file. After each kill the file must hold every append the writer had
 * acknowledged (printed after its promise resolved), no append only in part, contiguous
 * revisions in position order, and pass PRAGMA integrity_check.
 */
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import type { AckLine, CrashEventData } from './child/crash-writer';
import { exited, spawnTs } from './child/spawn-ts';

const CYCLES = 20;
const WRITERS = '8';

interface Row {
  position: number;
  stream_name: string;
  revision: number;
  event_id: string;
  data: string;
}

let dir: string;
let child: ChildProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-es-crash-'));
});
afterEach(async () => {
  if (child) {
    child.kill('SIGKILL');
    await exited(child);
  }
  rmSync(dir, { recursive: true, force: true });
});

it(`keeps every acknowledged append whole across ${CYCLES} SIGKILLs`, async () => {
  const file = join(dir, 'events.sqlite');
  const acked: AckLine[] = [];
  // Stop spawning writers once over budget, so a slow machine fails here, not by timeout.
  const deadline = Date.now() + 50_000;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    if (Date.now() > deadline)
      throw new Error(`only ${cycle} crash cycles fitted in the time budget`);
    acked.push(...(await runAndKill(file, randomInt(30, 250))));
    checkFile(file, acked);
  }
  // The writers really ran: many appends were acknowledged and then checked.
  expect(acked.length).toBeGreaterThan(CYCLES * 10);
}, 60_000);

/** Starts the writer, kills it `afterMs` after it is ready, returns the appends it acknowledged. */
async function runAndKill(file: string, afterMs: number): Promise<AckLine[]> {
  const proc = spawnTs(join(__dirname, 'child/crash-writer.ts'), [file, WRITERS]);
  child = proc;
  let out = '';
  let err = '';
  proc.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  proc.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  while (!out.startsWith('ready\n')) {
    if (proc.exitCode !== null) throw new Error(`writer exited early: ${err}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  proc.kill('SIGKILL');
  await closed;
  child = undefined;
  expect(proc.signalCode).toBe('SIGKILL');
  // A line cut off by the kill is not counted: only whole lines are acknowledgements.
  const lines = out.split('\n').slice(1, -1);
  return lines.map((line) => JSON.parse(line) as AckLine);
}

function checkFile(file: string, acked: readonly AckLine[]): void {
  const db = new Database(file);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const rows = db
      .prepare<[], Row>(
        'SELECT position, stream_name, revision, event_id, data FROM events ORDER BY position',
      )
      .all();
    // Plain checks collected into one list: tens of thousands of expect() calls per cycle
    // would take longer than the crashes themselves.
    const problems = [
      ...checkStreams(rows),
      ...checkBatches(rows),
      ...checkAcknowledged(rows, acked),
    ];
    expect(problems.slice(0, 10)).toEqual([]);
  } finally {
    db.close();
  }
}

/** In position order every stream's revisions run 0, 1, 2, … with no gap. */
function checkStreams(rows: readonly Row[]): string[] {
  const problems: string[] = [];
  const next = new Map<string, number>();
  let last = 0;
  for (const row of rows) {
    if (row.position <= last) problems.push(`position ${row.position} after ${last}`);
    last = row.position;
    const expected = next.get(row.stream_name) ?? 0;
    if (row.revision !== expected) {
      problems.push(`${row.stream_name}: revision ${row.revision} where ${expected} was due`);
    }
    next.set(row.stream_name, row.revision + 1);
  }
  return problems;
}

/** Every batch that is in the file is there whole, in consecutive positions. */
function checkBatches(rows: readonly Row[]): string[] {
  const batches = new Map<string, { row: Row; data: CrashEventData }[]>();
  for (const row of rows) {
    const data = JSON.parse(row.data) as CrashEventData;
    const members = batches.get(data.batch) ?? [];
    members.push({ row, data });
    batches.set(data.batch, members);
  }
  const problems: string[] = [];
  for (const [batch, members] of batches) {
    const whole =
      members.length === members[0].data.size &&
      members.every((m, i) => m.data.index === i && m.row.position === members[0].row.position + i);
    if (!whole)
      problems.push(`batch ${batch} is not whole and contiguous (${members.length} events)`);
  }
  return problems;
}

/** Every acknowledged append is in the file, with its content, where the writer was told. */
function checkAcknowledged(rows: readonly Row[], acked: readonly AckLine[]): string[] {
  const byId = new Map(rows.map((row) => [row.event_id, row]));
  const problems: string[] = [];
  for (const ack of acked) {
    const first = ack.revision - ack.ids.length + 1;
    const ok = ack.ids.every((id, i) => {
      const row = byId.get(id);
      const data = row && (JSON.parse(row.data) as CrashEventData);
      return (
        row !== undefined &&
        row.stream_name === ack.stream &&
        row.revision === first + i &&
        data?.pad === id.repeat(8) &&
        (i < ack.ids.length - 1 || row.position === ack.position)
      );
    });
    if (!ok)
      problems.push(`acknowledged append ${ack.stream}@${ack.revision} is missing or changed`);
  }
  return problems;
}
