/**
 * Walks a history in position order and finds the first event that was altered, removed or
 * reordered: each hash is recomputed from the one before it, positions must follow each other
 * without gaps, and every checkpoint must carry a good signature over a hash the chain has.
 */
import type { KeyObject } from 'node:crypto';
import { chainHash, GENESIS_HASH, type ChainedEvent } from './canonical';
import { CHECKPOINT_STREAM, CHECKPOINT_TYPE, checkpointProblem } from './checkpoint';
import type { CheckpointData } from './checkpoint';

export type ProblemKind =
  | 'hash mismatch'
  | 'missing hash'
  | 'gap in positions'
  | 'out of order'
  | 'bad signature'
  | 'checkpoint mismatch';

/** The first thing wrong, named by the event where it shows. */
export interface ChainProblem {
  kind: ProblemKind;
  position: number;
  streamName: string;
  type: string;
  detail: string;
}

export interface ChainSummary {
  events: number;
  checkpoints: number;
  /** The last event walked, with its hash (hex). */
  head: { position: number; hash: string } | null;
  /** The position the last good checkpoint signs; events after it are chained but unsigned. */
  signedUpTo: number | null;
  problem: ChainProblem | null;
}

/** How far back a checkpoint may sign (appends can land between reading the head and it). */
export const RECENT = 4096;

export interface VerifierOptions {
  /** Where the walk starts and the stored hash before it (a range of a parallel verify). */
  start?: { position: number; prev: Buffer };
  /** Hands checkpoints to the caller instead of checking them (they need the hashes before). */
  onCheckpoint?(e: ChainedEvent): void;
}

/** Feed events in position order; stops at the first problem. */
export class ChainVerifier {
  private prev: Buffer;
  private last = 0;
  private readonly firstPosition: number;
  private readonly recent: (Buffer | undefined)[] = new Array<Buffer | undefined>(RECENT);
  private summary: ChainSummary = {
    events: 0,
    checkpoints: 0,
    head: null,
    signedUpTo: null,
    problem: null,
  };

  /** The history starts at position 1 with the zero hash, unless `options.start` says else. */
  constructor(
    private readonly publicKey: KeyObject,
    private readonly options: VerifierOptions = {},
  ) {
    this.firstPosition = options.start?.position ?? 1;
    this.prev = options.start?.prev ?? GENESIS_HASH;
  }

  /** False once a problem is found (the rest is not looked at). */
  add(e: ChainedEvent): boolean {
    if (this.summary.problem) return false;
    const problem = this.check(e);
    if (problem) {
      this.summary.problem = {
        position: e.position,
        streamName: e.streamName,
        type: e.type,
        ...problem,
      };
      return false;
    }
    this.summary.events++;
    return true;
  }

  result(): ChainSummary {
    const head =
      this.last >= this.firstPosition
        ? { position: this.last, hash: this.prev.toString('hex') }
        : null;
    return { ...this.summary, head };
  }

  /** The chain's hash at `position` if it is among the recent ones walked. */
  hashAt(position: number): Buffer | undefined {
    if (position > this.last || position <= this.last - RECENT) return undefined;
    return this.recent[position % RECENT];
  }

  /** Why `data` does not sign this chain (signature, or a hash the chain does not have). */
  checkpointProblem(data: unknown): { kind: ProblemKind; detail: string } | null {
    return checkpointVerdict(data, this.publicKey, (p) => this.hashAt(p));
  }

  private check(e: ChainedEvent): { kind: ProblemKind; detail: string } | null {
    const expected = this.summary.events === 0 ? this.firstPosition : this.last + 1;
    if (e.position < expected) {
      return {
        kind: 'out of order',
        detail: `position ${e.position} comes after ${this.last}`,
      };
    }
    if (e.position > expected) {
      const missing = e.position - 1 === expected ? `${expected}` : `${expected}–${e.position - 1}`;
      return {
        kind: 'gap in positions',
        detail: `position ${missing} is missing before this event`,
      };
    }
    if (e.hash === null) return { kind: 'missing hash', detail: 'the event has no hash' };
    const h = chainHash(this.prev, e);
    if (!h.equals(e.hash)) {
      return {
        kind: 'hash mismatch',
        detail: `stored ${e.hash.toString('hex').slice(0, 16)}…, recomputed ${h.toString('hex').slice(0, 16)}… (its content or the event before it changed)`,
      };
    }
    this.prev = h;
    this.last = e.position;
    this.recent[e.position % RECENT] = h;
    if (e.streamName === CHECKPOINT_STREAM && e.type === CHECKPOINT_TYPE) {
      if (this.options.onCheckpoint) {
        this.options.onCheckpoint(e);
        return null;
      }
      const data = parseJson(e.data.toString());
      const bad = this.checkpointProblem(data);
      if (bad) return bad;
      this.summary.checkpoints++;
      this.summary.signedUpTo = (data as CheckpointData).position;
    }
    return null;
  }
}

/**
 * Why `data` does not sign a chain whose hashes `hashAt` gives (undefined: a position too far
 * back, or not before the checkpoint), or null when it does.
 */
export function checkpointVerdict(
  data: unknown,
  publicKey: KeyObject,
  hashAt: (position: number) => Buffer | undefined,
): { kind: ProblemKind; detail: string } | null {
  const bad = checkpointProblem(data, publicKey);
  if (bad) return { kind: 'bad signature', detail: bad };
  const c = data as CheckpointData;
  const have = hashAt(c.position);
  if (have === undefined) {
    return {
      kind: 'checkpoint mismatch',
      detail: `it signs position ${c.position}, which is not among the ${RECENT} events before it`,
    };
  }
  if (have.toString('hex') !== c.hash) {
    return {
      kind: 'checkpoint mismatch',
      detail: `it signs hash ${c.hash.slice(0, 16)}… at position ${c.position}, the chain has ${have.toString('hex').slice(0, 16)}…`,
    };
  }
  return null;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
