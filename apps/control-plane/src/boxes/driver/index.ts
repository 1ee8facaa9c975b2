export * from './box-driver.port';
export { LocalBoxDriver, NOT_ISOLATED_WARNING } from './local-box-driver';
export type { BoxLogger, LocalBoxDriverOptions } from './local-box-driver';
export type { ControlMechanism } from './box-control';
export { BOX_MOUNTS } from './bubblewrap';
export { BOX_HOST_COMMANDS } from './host-commands';
