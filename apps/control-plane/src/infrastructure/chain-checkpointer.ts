/**
 * Signs the chain head into `audit-checkpoints` every `every` events and at shutdown, with the
 * installation key (kept outside the store, see audit-key.ts). A reactor over `$all` in
 * spirit, but with no read model to wait for: it only counts positions.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore, Subscription } from '@sessionboxer/event-store';
import {
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  isChainReader,
  keyIdOf,
  loadOrCreateAuditKey,
  signCheckpoint,
  type AuditKey,
  type ChainReader,
  type CheckpointData,
} from '@sessionboxer/event-store/chain';
import type { AppConfig } from '../config';

export interface CheckpointerOptions {
  store: EventStore & ChainReader;
  key: AuditKey;
  /** Events between checkpoints (default 1,000). */
  every: number;
  onError(error: unknown): void;
}

export class ChainCheckpointer {
  /** The position the last checkpoint signs, and where that checkpoint event sits. */
  private signedUpTo = 0;
  private checkpointAt = 0;
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly options: CheckpointerOptions) {}

  async start(): Promise<void> {
    const { store } = this.options;
    const [last] = await store.readStream(CHECKPOINT_STREAM, {
      direction: 'backwards',
      maxCount: 1,
    });
    if (last) {
      this.signedUpTo = (last.data as CheckpointData).position;
      this.checkpointAt = last.position;
    }
    const head = await store.chainHead();
    if (head && head.position - this.signedUpTo >= this.options.every) await this.checkpoint();
    const subscription = store.subscribeToAll({ fromPosition: 'end' });
    this.subscription = subscription;
    this.loop = (async () => {
      for await (const e of subscription) {
        if (e.position - this.signedUpTo >= this.options.every) {
          await this.checkpoint().catch((error: unknown) => this.options.onError(error));
        }
      }
    })().catch((error: unknown) => this.options.onError(error));
  }

  /** Stops counting, then signs what the last checkpoint does not cover yet. */
  async stop(): Promise<void> {
    await this.subscription?.close();
    await this.loop;
    this.subscription = null;
    this.loop = null;
    const head = await this.options.store.chainHead();
    if (head && head.position > this.signedUpTo && head.position !== this.checkpointAt) {
      await this.checkpoint();
    }
  }

  private async checkpoint(): Promise<void> {
    const { store, key } = this.options;
    const head = await store.chainHead();
    if (!head?.hash) return;
    const data = signCheckpoint(key.privateKey, key.publicKey, head.position, head.hash);
    const id = randomUUID();
    const result = await store.appendToStream(CHECKPOINT_STREAM, [
      {
        id,
        type: CHECKPOINT_TYPE,
        data,
        metadata: {
          commandId: id,
          correlationId: id,
          causationId: id,
          actor: { kind: 'system', id: 'chain-checkpointer' },
          at: new Date().toISOString(),
        },
      },
    ]);
    this.signedUpTo = head.position;
    this.checkpointAt = result.position;
  }
}

/**
 * The checkpointer for the configured store, with the key at `config.auditKey` (created at
 * first start); null for a store that keeps no chain here (EventStoreDB: see ARCHITECTURE).
 */
export function openChainCheckpointer(
  config: Pick<AppConfig, 'auditKey' | 'checkpointEvery'>,
  store: EventStore,
  logger: { log(message: string): void; error(message: string): void },
): ChainCheckpointer | null {
  if (!isChainReader(store)) {
    logger.log('this event store keeps no hash chain here: no signed checkpoints');
    return null;
  }
  const key = loadOrCreateAuditKey(config.auditKey);
  logger.log(
    `signing chain checkpoints every ${config.checkpointEvery} events with ${config.auditKey} (key ${keyIdOf(key.publicKey)})`,
  );
  return new ChainCheckpointer({
    store,
    key,
    every: config.checkpointEvery,
    onError: (e) =>
      logger.error(`chain checkpoint failed: ${e instanceof Error ? e.message : String(e)}`),
  });
}
