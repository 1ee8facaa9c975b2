export { atspiAction, atspiTree } from './atspi';
export { closeAtspi } from './atspi-helper';
export { DESKTOP_BUS } from './bus';
export {
  AtspiError,
  type AtspiApp,
  type AtspiErrorCode,
  type AtspiExpect,
  type AtspiNode,
  type AtspiTreeOptions,
} from './atspi-types';
