export { BoxesModule } from './boxes.module';
export { BoxSockets, BOX_GATEWAY_PATH } from './channel/box-sockets';
export {
  bindInBoxFolder,
  BoxFolderServers,
  BoxSocketFolders,
  type BoxSocketFolderHook,
} from './channel/box-socket-folder';
export { DaemonChannel, daemonAnswer } from './channel/daemon-channel';
export { BoxLifecycle } from './lifecycle/box-lifecycle.service';
export { BoxWorkspaceHooks, type BoxWorkspaceHook } from './lifecycle/box-workspace-hooks';
export { boxPaths, projectRoot, daemonLaunch } from './lifecycle/box-paths';
export { SnapshotsService } from './snapshots/snapshots.service';
export { BLOB_GC_NOW_JOB } from './snapshots/blob-gc.service';
export { TurnSnapshots } from './snapshots/turn-snapshots.service';
export { Terminals, type RecordedOutput } from './terminals/terminals.service';
export { TerminalKeys } from './terminals/terminal-keys.service';
export { sizeLimits } from './workspace/size-limits';
export { assertRoom, overQuota, type Quota } from './workspace/workspace-quota';
export * from './driver';
