import { randomUUID } from 'node:crypto';
import {
  sessionDecider,
  sessionStream,
  type Actor,
  type CreateSession,
  type SessionCommand,
  type SessionStatus,
} from '@sessionboxer/domain';
import type { CommandHandler } from '@sessionboxer/event-store';

/** What the read models should end up showing for a session. */
export interface ExpectedSession {
  title: string;
  status: SessionStatus;
  parentId: string | null;
  snapshotCount: number;
}

export interface WorkloadOptions {
  prefix: string;
  sessions: number;
  actionsPerSession: number;
  seed: number;
}

/** A deterministic generator, so a failing run can be replayed. */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function creation(id: string, parent: string | null, forked: boolean): CreateSession['data'] {
  return {
    sessionId: id,
    title: `Session ${id}`,
    provider: 'claude-code',
    model: 'claude',
    environment: 'docker-linux',
    createdBy: parent === null ? null : { sessionId: parent },
    forkedFrom: forked && parent !== null ? { sessionId: parent, snapshotId: `snap-${id}` } : null,
  };
}

/** The next valid command for a session, applied to `state` as the decider will. */
function nextAction(id: string, state: ExpectedSession, roll: number, n: number) {
  if (roll < 0.4) {
    state.title = `${id} v${n}`;
    return { type: 'SetSessionTitle' as const, data: { sessionId: id, title: state.title } };
  }
  if (roll < 0.55) {
    state.snapshotCount++;
    const data = { sessionId: id, snapshotId: `${id}-snap-${n}`, sizeBytes: n * 1000 };
    return { type: 'TakeSnapshot' as const, data: { ...data, conversationPosition: n } };
  }
  if (state.status === 'running') {
    state.status = 'stopped';
    return {
      type: 'StopSession' as const,
      data: { sessionId: id, reason: roll < 0.7 ? 'done' : undefined },
    };
  }
  state.status = 'running';
  return { type: 'ResumeSession' as const, data: { sessionId: id } };
}

/**
 * Drives sessions through the real command pipeline: each is created in turn (about half by
 * the previous session's agent, some of those as forks), then all are renamed, snapshotted,
 * stopped and resumed concurrently, so their events interleave in `$all`. Returns the last position.
 */
export async function runSessionWorkload(
  handler: CommandHandler,
  options: WorkloadOptions,
  expected: Map<string, ExpectedSession>,
): Promise<number> {
  const random = lcg(options.seed);
  let last = -1;
  const send = async (
    sessionId: string,
    actor: Actor,
    command: Omit<SessionCommand, 'metadata'>,
  ) => {
    const metadata = { commandId: randomUUID(), at: new Date().toISOString(), actor };
    const full = { ...command, metadata } as SessionCommand;
    const r = await handler.handle(sessionDecider, sessionStream(sessionId), full);
    if (r.position !== null) last = Math.max(last, r.position);
  };
  const ids = Array.from({ length: options.sessions }, (_, i) => `${options.prefix}${i}`);
  const actors = new Map<string, Actor>();
  for (const [i, id] of ids.entries()) {
    const parent = i > 0 && random() < 0.5 ? ids[i - 1] : null;
    const actor: Actor = parent
      ? { kind: 'agent', sessionId: parent }
      : { kind: 'person', id: 'ada' };
    actors.set(id, actor);
    const start = { title: `Session ${id}`, status: 'running' as const, parentId: parent };
    expected.set(id, { ...start, snapshotCount: 0 });
    await send(id, actor, { type: 'CreateSession', data: creation(id, parent, random() < 0.3) });
  }
  const rolls = ids.map(() => Array.from({ length: options.actionsPerSession }, random));
  await Promise.all(
    ids.map(async (id, i) => {
      for (const [n, roll] of rolls[i].entries()) {
        await send(id, actors.get(id)!, nextAction(id, expected.get(id)!, roll, n));
      }
    }),
  );
  return last;
}
