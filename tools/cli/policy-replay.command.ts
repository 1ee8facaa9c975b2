/**
 * `policy-replay --policy FILE [--session ID]`: what the candidate policy in FILE (JSON:
 * {agentTools?, sessionCreation?, egressAllow?}) would have refused of the recorded history,
 * by the live system's own decisions (apps/control-plane/src/audit/policy-replay.ts), the same
 * as POST /api/audit/policy-replay.
 */
import * as fs from 'node:fs';
import type { EventStore } from '@sessionboxer/event-store';
import {
  candidatePolicy,
  replayPolicy,
  type ReplayReport,
} from '../../apps/control-plane/src/audit/policy-replay';

export async function policyReplayCommand(
  store: EventStore,
  policyFile: string,
  sessionId: string | null,
): Promise<ReplayReport> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
  } catch (e) {
    throw new Error(
      `${policyFile} is not a JSON policy: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return replayPolicy(store, candidatePolicy(parsed), sessionId);
}

export function formatReplay(r: ReplayReport): string {
  const where = r.sessionId ? `session ${r.sessionId}` : 'the whole installation';
  const head = `${where}: ${r.examined.toolCalls} sessionboxer tool calls and ${r.examined.connections} connections examined; ${r.findings.length} would have been refused or asked`;
  const lines = r.findings.map(
    (f) =>
      `${String(f.position).padStart(8)} ${f.recordedAt} session ${f.sessionId} ${f.kind} ${f.target}: ${f.outcome === 'ask' ? 'would ask' : 'would refuse'}${f.refusedThen ? ' (refused then too)' : ''}: ${f.reason}`,
  );
  return [head, ...lines].join('\n');
}
