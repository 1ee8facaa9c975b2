/** The tamper-evident chain: `import { … } from '@sessionboxer/event-store/chain'`. */
export {
  chainHash,
  chainHashV2,
  GENESIS_HASH,
  type ChainFields,
  type ChainedEvent,
} from './canonical';
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
  REDACTED,
  type BundleEntry,
  type BundleManifest,
  type BundleReport,
  type BundleScope,
} from './bundle';
export {
  CommitmentError,
  eventDigest,
  linkHash,
  SALT_BYTES,
  stringLeaves,
  type Hidden,
} from './commitment';
export { exportBundle, ExportError, type ExportOptions, type Redaction } from './export-bundle';
export { isChainReader, type ChainReader } from './chain-reader';
export { verifyStore, type WalkProgress } from './verify-store';
