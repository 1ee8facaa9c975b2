/**
 * Walks a history in position order and finds the first event that was altered, removed or
 * reordered: each hash is recomputed from the one before it, positions must follow each other
 * without gaps, and every checkpoint must carry a good signature over a hash the chain has.
 */
import type { KeyObject } from 'node:crypto';
import { chainHash, GENESIS_HASH, type ChainedEvent } from './canonical';
import { CommitmentError, eventDigest, linkHash, type Hidden } from './commitment';
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

/**
 * Feed events in position order; stops at the first problem. A bundle may also give an event
 * as its digest alone (left out of the export), hide some of an event's values (`Hidden`), and
 * start a new segment further on from a hash it states (`restart`): a statement that proves
 * nothing until a signature over a later hash of the same segment does, so a segment may end
 * only once every event given in it is signed (`unsigned`).
 */
export class ChainVerifier {
  private prev: Buffer;
  private last = 0;
  private started = false;
  private firstPosition: number;
  /** The last event given whole (not a checkpoint) and the highest position signed, in this segment. */
  private lastWhole = 0;
  private signed = 0;
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
  add(e: ChainedEvent, hide?: Hidden): boolean {
    if (this.summary.problem) return false;
    const problem = this.check(e, hide);
    if (problem) return this.fail(e.position, e.streamName, e.type, problem);
    this.summary.events++;
    return true;
  }

  /** An event a bundle left out, given by its digest (schema 3). */
  addDigest(position: number, digest: Buffer): boolean {
    if (this.summary.problem) return false;
    const problem = this.order(position) ?? this.link(position, linkHash(this.prev, digest), null);
    return problem ? this.fail(position, '(left out)', '(left out)', problem) : true;
  }

  /** A new segment from `position`, after the stated hash `prev` of the event before it. */
  restart(position: number, prev: Buffer): boolean {
    if (this.summary.problem) return false;
    const open = this.unsigned();
    if (open !== null) {
      return this.fail(open, '(segment)', '(segment)', {
        kind: 'checkpoint mismatch',
        detail: `no signature covers position ${open} before the bundle skips to ${position}`,
      });
    }
    if (this.started && position <= this.last + 1) {
      return this.fail(position, '(segment)', '(segment)', {
        kind: 'out of order',
        detail: `a segment from position ${position} comes after ${this.last}`,
      });
    }
    this.firstPosition = position;
    this.prev = prev;
    this.started = false;
    this.lastWhole = 0;
    this.signed = 0;
    return true;
  }

  /** The last event given whole in this segment that no signature covers (`alsoSigned`: a head signed elsewhere). */
  unsigned(alsoSigned = 0): number | null {
    return this.lastWhole > Math.max(this.signed, alsoSigned) ? this.lastWhole : null;
  }

  result(): ChainSummary {
    const head = this.started ? { position: this.last, hash: this.prev.toString('hex') } : null;
    return { ...this.summary, head };
  }

  /** The chain's hash at `position` if it is among the recent ones walked in this segment. */
  hashAt(position: number): Buffer | undefined {
    if (position > this.last || position <= this.last - RECENT) return undefined;
    if (position < this.firstPosition) return undefined;
    return this.recent[position % RECENT];
  }

  /** Why `data` does not sign this chain (signature, or a hash the chain does not have). */
  checkpointProblem(data: unknown): { kind: ProblemKind; detail: string } | null {
    return checkpointVerdict(data, this.publicKey, (p) => this.hashAt(p));
  }

  private fail(
    position: number,
    streamName: string,
    type: string,
    problem: { kind: ProblemKind; detail: string },
  ): false {
    this.summary.problem = { position, streamName, type, ...problem };
    return false;
  }

  private order(position: number): { kind: ProblemKind; detail: string } | null {
    const expected = this.started ? this.last + 1 : this.firstPosition;
    if (position < expected) {
      return { kind: 'out of order', detail: `position ${position} comes after ${this.last}` };
    }
    if (position > expected) {
      const missing = position - 1 === expected ? `${expected}` : `${expected}–${position - 1}`;
      return {
        kind: 'gap in positions',
        detail: `position ${missing} is missing before this event`,
      };
    }
    return null;
  }

  private link(
    position: number,
    h: Buffer,
    stored: Buffer | null,
  ): { kind: ProblemKind; detail: string } | null {
    if (stored !== null && !h.equals(stored)) {
      return {
        kind: 'hash mismatch',
        detail: `stored ${stored.toString('hex').slice(0, 16)}…, recomputed ${h.toString('hex').slice(0, 16)}… (its content or the event before it changed)`,
      };
    }
    this.prev = h;
    this.last = position;
    this.started = true;
    this.recent[position % RECENT] = h;
    return null;
  }

  private check(e: ChainedEvent, hide?: Hidden): { kind: ProblemKind; detail: string } | null {
    const out = this.order(e.position);
    if (out) return out;
    if (e.hash === null) return { kind: 'missing hash', detail: 'the event has no hash' };
    const h = linkOf(this.prev, e, hide);
    if (typeof h === 'string') return { kind: 'hash mismatch', detail: h };
    const bad = this.link(e.position, h, e.hash);
    if (bad) return bad;
    if (e.streamName !== CHECKPOINT_STREAM || e.type !== CHECKPOINT_TYPE) {
      this.lastWhole = e.position;
      return null;
    }
    if (this.options.onCheckpoint) {
      this.options.onCheckpoint(e);
      return null;
    }
    const data = parseJson(e.data.toString()) as CheckpointData | null;
    // A bundle's segment may begin after the position a checkpoint in it signs: it covers
    // nothing given here, and proves nothing either way.
    if (typeof data?.position === 'number' && data.position < this.firstPosition) return null;
    const verdict = this.checkpointProblem(data);
    if (verdict) return verdict;
    this.summary.checkpoints++;
    this.summary.signedUpTo = (data as CheckpointData).position;
    this.signed = Math.max(this.signed, (data as CheckpointData).position);
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

/** The event's link from `prev`, or why its data and salts do not even make one. */
function linkOf(prev: Buffer, e: ChainedEvent, hide?: Hidden): Buffer | string {
  try {
    if (hide && e.salts) return linkHash(prev, eventDigest(e, e.salts, hide));
    return chainHash(prev, e);
  } catch (error) {
    if (error instanceof CommitmentError || error instanceof SyntaxError) {
      return `its data does not fit its commitments: ${error.message}`;
    }
    throw error;
  }
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
