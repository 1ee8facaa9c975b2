import { Inject, Injectable } from '@nestjs/common';
import type { TurnSnapshot } from '@sessionboxer/contracts';
import {
  DomainError,
  ErrorCode,
  sessionDecider,
  sessionStream,
  type Actor,
} from '@sessionboxer/domain';
import { deterministicUuid } from '@sessionboxer/event-store';
import { turnSnapshotQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AppConfig } from '../../config';
import { CommandBus } from '../../infrastructure/command-bus';
import { APP_CONFIG, BOX_DRIVER, READ_MODELS } from '../../infrastructure/tokens';
import type { BoxDriver } from '../driver';
import { BoxLifecycle } from '../lifecycle/box-lifecycle.service';
import { boxPaths } from '../lifecycle/box-paths';
import { BlobStore } from './blob-store';
import { snapshotLock, type SnapshotLock } from './snapshot-lock';
import {
  capture,
  materialize,
  readManifest,
  writeManifest,
  type Manifest,
} from './manifest-snapshots';

const ID = /^[0-9a-f-]{36}$/;

/**
 * The snapshot at each turn's end, content-addressed: the files' bytes in a blob store shared
 * by every session (`<data dir>/snapshot-blobs`), one manifest per snapshot
 * (`<data dir>/snapshot-manifests/<session>/<snapshot>.json`). A turn that changed 3 files
 * stores 3 blobs; forks and rewinds write the manifest's tree back.
 */
@Injectable()
export class TurnSnapshots {
  private readonly blobs: BlobStore;
  /** Held shared while blobs are stored or read; the collector holds it alone. */
  readonly lock: SnapshotLock;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly bus: CommandBus,
    private readonly boxes: BoxLifecycle,
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
  ) {
    this.blobs = BlobStore.inDataDir(config.dataDir);
    this.lock = snapshotLock(this.blobs.root);
  }

  /** Snapshots the workspace as `turn` ended at `position`; once per turn (the decider's rule). */
  async take(sessionId: string, turn: number, position: number, actor: Actor, key: string) {
    const existing = this.queries().get(sessionId, turn);
    if (existing) return existing;
    const { workspace } = boxPaths(this.config.dataDir, sessionId);
    if (!fs.existsSync(workspace)) return null;
    const snapshotId = deterministicUuid(`turn-snapshot/${sessionId}/${turn}`);
    const latest = this.queries().latest(sessionId);
    const previous = latest ? this.tryManifest(sessionId, latest.id) : null;
    const taken = await this.lock.shared(() =>
      this.frozen(sessionId, () => {
        const captured = capture(workspace, this.blobs, previous);
        writeManifest(this.manifestPath(sessionId, snapshotId), captured.manifest);
        return captured;
      }),
    );
    const { sizeBytes, files, newBytes } = taken;
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'TakeTurnSnapshot',
      data: {
        sessionId,
        snapshotId,
        turn,
        conversationPosition: position,
        sizeBytes,
        files,
        newBytes,
      },
      metadata: this.bus.metadata(actor, key),
    });
    return this.queries().get(sessionId, turn);
  }

  list(sessionId: string): TurnSnapshot[] {
    return this.queries().list(sessionId);
  }

  byId(sessionId: string, snapshotId: string): TurnSnapshot | null {
    return this.queries().byId(sessionId, snapshotId);
  }

  /** The turn's snapshot, or the NotFound answer that says which turns have one. */
  require(sessionId: string, turn: number): TurnSnapshot {
    const found = this.queries().get(sessionId, turn);
    if (found) return found;
    const turns = this.list(sessionId).map((s) => s.turn);
    throw new DomainError(
      ErrorCode.NotFound,
      `session ${sessionId} has no snapshot of turn ${turn} (turns with one: ${turns.join(', ') || 'none yet'})`,
    );
  }

  /** A fork's files: the snapshot's tree written into the new session's workspace. */
  seed(fromSessionId: string, snapshotId: string, workspace: string): Promise<void> {
    const manifest = readManifest(this.manifestPath(fromSessionId, snapshotId));
    fs.mkdirSync(workspace, { recursive: true });
    return this.lock.shared(() => materialize(manifest, this.blobs, workspace));
  }

  /** Rewind: the workspace as it was when `turn` ended, with the box frozen meanwhile. */
  async rewind(sessionId: string, turn: number, actor: Actor, key: string | undefined) {
    const snapshot = this.require(sessionId, turn);
    const manifest = readManifest(this.manifestPath(sessionId, snapshot.id));
    const { workspace } = boxPaths(this.config.dataDir, sessionId);
    await this.boxes.freeze(sessionId);
    try {
      for (const entry of fs.readdirSync(workspace)) {
        fs.rmSync(path.join(workspace, entry), { recursive: true, force: true });
      }
      await this.lock.shared(() => materialize(manifest, this.blobs, workspace));
    } finally {
      await this.boxes.thaw(sessionId);
    }
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RewindToTurn',
      data: { sessionId, turn },
      metadata: this.bus.metadata(actor, key),
    });
    return snapshot;
  }

  /**
   * Runs `work` with the session's box held still, so the snapshot is one moment of the
   * workspace (a next turn started at once writes nothing while it is read). Only a box of this
   * instance that runs; a stop asked for meanwhile waits for the hold, so the box it stopped
   * stays stopped. Not a lifecycle fact: nothing is recorded.
   */
  private async frozen<T>(sessionId: string, work: () => T): Promise<T> {
    if (this.driver.info(sessionId)?.status !== 'running') return work();
    return this.driver.hold(sessionId, work);
  }

  private tryManifest(sessionId: string, snapshotId: string): Manifest | null {
    try {
      return readManifest(this.manifestPath(sessionId, snapshotId));
    } catch {
      return null; // gone or unreadable: every file is hashed again, nothing else changes
    }
  }

  /** Where the manifests are: a folder per session. */
  get manifestsRoot(): string {
    return path.join(this.config.dataDir, 'snapshot-manifests');
  }

  get blobStore(): BlobStore {
    return this.blobs;
  }

  private manifestPath(sessionId: string, snapshotId: string): string {
    if (!ID.test(snapshotId)) throw new Error(`bad snapshot id ${JSON.stringify(snapshotId)}`);
    boxPaths(this.config.dataDir, sessionId); // a UUID, or it throws
    const root = path.join(this.manifestsRoot, sessionId.toLowerCase());
    return path.join(root, `${snapshotId}.json`);
  }

  private queries() {
    return turnSnapshotQueries(this.readModels);
  }
}
