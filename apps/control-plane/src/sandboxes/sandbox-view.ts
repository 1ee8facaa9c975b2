import { costCents, SIZE_TABLE, type SandboxState } from '@sessionboxer/domain/sandbox';

/** A sandbox as every tool, the REST API and the CLI answer it (the spec's field names). */
export interface SandboxView {
  id: string;
  name: string;
  status: string;
  size: string;
  cpu: number;
  memory_gib: number;
  disk_gib: number;
  cents_per_hour: number;
  idle_timeout_seconds: number;
  stop_when_agents_finish: boolean;
  secrets: string[];
  environment: string;
  metadata: Record<string, string>;
  cost_cents: number;
  stopped_reason: string | null;
  forked_from: string | null;
  created_at: string;
  updated_at: string;
}

export function sandboxView(id: string, state: SandboxState, now: string): SandboxView {
  const s = state.settings;
  if (s === null) throw new Error(`sandbox ${id} has no settings`);
  return {
    id,
    name: s.name,
    status: state.status,
    size: s.size,
    ...SIZE_TABLE[s.size],
    idle_timeout_seconds: s.idleTimeoutSeconds,
    stop_when_agents_finish: s.stopWhenAgentsFinish,
    secrets: s.secrets,
    environment: s.environment,
    metadata: s.metadata,
    cost_cents: costCents(s.size, state.spend, now),
    stopped_reason: state.status === 'stopped' ? state.stoppedReason : null,
    forked_from: s.forkedFrom,
    created_at: state.createdAt ?? now,
    updated_at: state.updatedAt ?? now,
  };
}
