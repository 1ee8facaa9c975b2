export * from './session.commands';
export * from './session.events';
export * from './session.state';
export * from './session.decider';
export { NOTIFICATION_MAX_LENGTH, PANE_COMMAND_MAX_LENGTH } from './session.activity.validation';
export * from './session.recordings';
export { sessionBranch, validSessionRepos } from './session.validation';
export { turnSnapshotId } from './session.turn-snapshots';
export { TERMINAL_OUTPUT_BATCH_MAX } from './session.terminal-output';
