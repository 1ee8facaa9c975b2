import * as fs from 'node:fs';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { sidebarQueries, type SqliteReadModelStore } from '@sessionboxer/projections';
import type { AppConfig } from '../../config';
import { BoxOwnership, HEARTBEAT_MS } from '../../cluster';
import type { BoxDriver } from '../driver';
import { BoxSockets } from '../channel/box-sockets';
import { APP_CONFIG, BOX_DRIVER, READ_MODELS } from '../../infrastructure/tokens';
import { BoxLifecycle } from './box-lifecycle.service';
import { boxPaths } from './box-paths';

/** How long a surviving daemon has to reconnect after a restart before its box is re-created. */
const RESTORE_GRACE_MS = 3000;
/** How often an instance looks for boxes whose instance died, to take them over. */
const TAKEOVER_EVERY_MS = 2 * HEARTBEAT_MS;

/**
 * Boxes an earlier control plane (or another instance that died) left running: taken back.
 *
 * At start, the boxes the driver adopted (those no other live instance holds) are recorded
 * (BoxAdopted, BoxProcessesLost) and get their sockets back at once, running or frozen, so
 * their daemons reconnect. A running session whose box was not adopted is started again after
 * a grace. Then, every few seconds, a box whose instance stopped renewing its lease is taken
 * over the same way, so a kill -9 of one instance leaves its boxes to the others.
 */
@Injectable()
export class BoxAdoption implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Boxes');
  private readonly restoring = new Set<NodeJS.Timeout>();
  private scan: NodeJS.Timeout | null = null;
  private closing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
    private readonly sockets: BoxSockets,
    private readonly lifecycle: BoxLifecycle,
    private readonly ownership: BoxOwnership,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.boxes) return;
    const adopted = new Set<string>();
    for (const found of this.driver.found()) {
      if (await this.lifecycle.recordFound(found)) adopted.add(found.sessionId);
    }
    for (const sessionId of adopted) {
      await this.sockets.listen(sessionId, boxPaths(this.config.dataDir, sessionId).socket);
    }
    const running = sidebarQueries(this.readModels)
      .list()
      .filter((s) => s.status === 'running' && !adopted.has(s.id));
    for (const session of running) {
      const paths = boxPaths(this.config.dataDir, session.id);
      if (!fs.existsSync(paths.workspace)) continue;
      // Another live instance runs it: its box is that instance's business.
      if (!(await this.ownership.claim(session.id))) continue;
      await this.sockets.listen(session.id, paths.socket);
      this.restoreLater(session.id);
    }
    this.scan = setInterval(() => void this.takeOverOrphans(), TAKEOVER_EVERY_MS);
    this.scan.unref();
  }

  beforeApplicationShutdown(): void {
    this.closing = true;
    if (this.scan) clearInterval(this.scan);
    for (const timer of this.restoring) clearTimeout(timer);
  }

  private restoreLater(sessionId: string): void {
    const timer = setTimeout(() => {
      this.restoring.delete(timer);
      if (this.closing || this.sockets.clientOf(sessionId) || this.driver.info(sessionId)) return;
      this.lifecycle
        .provision(sessionId)
        .catch((e: unknown) => this.logger.error(`restoring box ${sessionId}: ${String(e)}`));
    }, RESTORE_GRACE_MS);
    this.restoring.add(timer);
  }

  /** Boxes with a saved state that no live instance holds: this one takes them. */
  private async takeOverOrphans(): Promise<void> {
    for (const sessionId of this.driver.savedBoxes()) {
      if (this.closing) return;
      if (this.ownership.isMine(sessionId) || this.driver.info(sessionId)) continue;
      try {
        if (!(await this.ownership.claim(sessionId))) continue;
        const taken = await this.lifecycle.takeOver(sessionId);
        if (taken) this.logger.warn(`box ${sessionId}: its instance stopped; taken over here`);
        else await this.ownership.release(sessionId);
      } catch (e) {
        this.logger.warn(`taking over box ${sessionId}: ${String(e)}`);
      }
    }
  }
}
