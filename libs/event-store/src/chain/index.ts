/** The tamper-evident chain: `import { … } from '@sessionboxer/event-store/chain'`. */
export { chainHash, GENESIS_HASH, type ChainFields, type ChainedEvent } from './canonical';
export {
  CHECKPOINT_STREAM,
  CHECKPOINT_TYPE,
  keyIdOf,
  signCheckpoint,
  checkpointProblem,
  type CheckpointData,
} from './checkpoint';
export {
  auditKeyPath,
  loadOrCreateAuditKey,
  publicKeyPath,
  readPublicKey,
  type AuditKey,
} from './audit-key';
export {
  ChainVerifier,
  type ChainProblem,
  type ChainSummary,
  type ProblemKind,
} from './verify-chain';
export {
  BUNDLE_FORMAT,
  BundleVerifier,
  bundleLine,
  parseBundleLine,
  type BundleManifest,
  type BundleReport,
} from './bundle';
export { isChainReader, type ChainReader } from './chain-reader';
export { exportBundle, verifyStore, type WalkProgress } from './verify-store';
