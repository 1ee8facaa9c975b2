import { Logger, Module } from '@nestjs/common';
import * as path from 'node:path';
import type { AppConfig } from '../config';
import { APP_CONFIG, BOX_DRIVER } from '../infrastructure/tokens';
import { PresenceModule } from '../presence';
import { SettingsModule } from '../settings';
import { BoxTools } from './box.tools';
import { BoxSocketFolders } from './channel/box-socket-folder';
import { BoxSockets } from './channel/box-sockets';
import { DaemonChannel } from './channel/daemon-channel';
import { LocalBoxDriver } from './driver';
import { BoxOwnership, InstanceRegistry } from '../cluster';
import { BoxAdoption } from './lifecycle/box-adoption.service';
import { BoxLifecycle } from './lifecycle/box-lifecycle.service';
import { BoxWorkspaceHooks } from './lifecycle/box-workspace-hooks';
import { JobsModule } from '../jobs';
import { SnapshotBlobsGc } from './snapshots/blob-gc.service';
import { SnapshotsController } from './snapshots/snapshots.controller';
import { SnapshotsService } from './snapshots/snapshots.service';
import { TurnSnapshotsReactor } from './snapshots/turn-snapshots.reactor';
import { TurnSnapshots } from './snapshots/turn-snapshots.service';
import { SessionTerminalsController } from './terminals/session-terminals.controller';
import { TerminalKeys } from './terminals/terminal-keys.service';
import { Terminals } from './terminals/terminals.service';
import { SessionFilesController } from './workspace/session-files.controller';

/**
 * A session's box: the driver (bubblewrap), the socket and channel to its daemon, its
 * lifecycle, its workspace's snapshots and files, and its Terminals.
 */
@Module({
  imports: [SettingsModule, PresenceModule, JobsModule],
  controllers: [SnapshotsController, SessionTerminalsController, SessionFilesController],
  providers: [
    {
      provide: BOX_DRIVER,
      inject: [APP_CONFIG, InstanceRegistry, BoxOwnership],
      useFactory: async (config: AppConfig, registry: InstanceRegistry, owners: BoxOwnership) => {
        // Registered first: a second process of this instance's name must not adopt its boxes.
        await registry.register();
        return LocalBoxDriver.open({
          dataDir: config.dataDir,
          isolation: config.boxIsolation,
          logDir: path.join(config.dataDir, 'logs'),
          identity: { uid: config.boxUidBase, gid: config.boxUidBase, count: 65536 },
          logger: new Logger('BoxDriver'),
          privatePaths: [config.auditKey],
          claim: (sessionId) => owners.claim(sessionId),
          defaultLimits: config.boxLimits.sessionBoxes ?? undefined,
        });
      },
    },
    BoxSocketFolders,
    BoxWorkspaceHooks,
    BoxSockets,
    DaemonChannel,
    BoxLifecycle,
    BoxAdoption,
    SnapshotsService,
    TurnSnapshots,
    TurnSnapshotsReactor,
    SnapshotBlobsGc,
    Terminals,
    TerminalKeys,
    BoxTools,
  ],
  exports: [
    BOX_DRIVER,
    BoxSocketFolders,
    BoxWorkspaceHooks,
    BoxSockets,
    DaemonChannel,
    BoxLifecycle,
    SnapshotsService,
    TurnSnapshots,
    SnapshotBlobsGc,
    Terminals,
    TerminalKeys,
  ],
})
export class BoxesModule {}
