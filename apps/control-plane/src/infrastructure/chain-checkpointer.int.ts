/**
 * The checkpointer over a real SQLite store and a real key file: a checkpoint every N events
 * and one at stop, all signed with the key it created (0600, public key beside it).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NewEvent } from '@sessionboxer/event-store';
import {
  CHECKPOINT_STREAM,
  keyIdOf,
  publicKeyPath,
  readPublicKey,
  verifyStore,
  type CheckpointData,
} from '@sessionboxer/event-store/chain';
import { SqliteEventStore } from '@sessionboxer/event-store/sqlite';
import { openChainCheckpointer, type ChainCheckpointer } from './chain-checkpointer';

function event(n: number): NewEvent {
  const id = randomUUID();
  return {
    id,
    type: 'Noted',
    data: { n },
    metadata: {
      commandId: id,
      correlationId: id,
      causationId: id,
      actor: { kind: 'system', id: 'test' },
      at: new Date().toISOString(),
    },
  };
}

const quiet = { log: () => undefined, error: (m: string) => console.error(m) };

describe('the chain checkpointer', () => {
  let dir: string;
  let store: SqliteEventStore;
  let checkpointer: ChainCheckpointer | null;
  const config = () => ({ auditKey: path.join(dir, 'data.audit-key'), checkpointEvery: 5 });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-checkpointer-'));
    fs.mkdirSync(path.join(dir, 'data'));
    store = SqliteEventStore.open({ path: path.join(dir, 'data', 'events.sqlite') });
  });
  afterEach(async () => {
    await checkpointer?.stop();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The checkpoints once there are `count` (or what there is after 500 looks: the test fails). */
  async function checkpoints(count: number): Promise<CheckpointData[]> {
    for (let looks = 0; ; looks++) {
      const found = await store.readStream(CHECKPOINT_STREAM);
      if (found.length >= count || looks === 500) return found.map((e) => e.data as CheckpointData);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('signs the head every N events and at stop, with a key it keeps 0600 outside the store', async () => {
    checkpointer = openChainCheckpointer(config(), store, quiet);
    await checkpointer!.start();
    for (let i = 0; i < 12; i++) await store.appendToStream('notes-1', [event(i)]);
    const live = await checkpoints(2);
    expect(live[0].position).toBeGreaterThanOrEqual(5);
    await checkpointer!.stop();
    checkpointer = null;
    const all = await checkpoints(3);
    expect(all).toHaveLength(3);
    const head = (await store.chainHead())!;
    // The last one signs the last event before it.
    expect(all[all.length - 1]).toMatchObject({ position: head.position - 1 });

    const keyFile = config().auditKey;
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const publicKey = readPublicKey(publicKeyPath(keyFile));
    expect(all.every((c) => c.keyId === keyIdOf(publicKey))).toBe(true);
    expect(await verifyStore(store, publicKey)).toMatchObject({
      problem: null,
      checkpoints: all.length,
    });
  });

  it('adds no checkpoint at stop when nothing came after the last one, and keeps its key across starts', async () => {
    await store.appendToStream('notes-1', [event(1)]);
    checkpointer = openChainCheckpointer(config(), store, quiet);
    await checkpointer!.start();
    await checkpointer!.stop();
    const first = await checkpoints(1);
    checkpointer = openChainCheckpointer(config(), store, quiet);
    await checkpointer!.start();
    await checkpointer!.stop();
    checkpointer = null;
    const again = await store.readStream(CHECKPOINT_STREAM);
    expect(again).toHaveLength(1);
    expect(again[0].data).toEqual(first[0]);
  });

  it('refuses a key file others can read', () => {
    fs.writeFileSync(config().auditKey, 'x', { mode: 0o644 });
    fs.chmodSync(config().auditKey, 0o644);
    expect(() => openChainCheckpointer(config(), store, quiet)).toThrow(/readable by others/);
  });
});
