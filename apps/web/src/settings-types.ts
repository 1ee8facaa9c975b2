// The Settings page's shapes: GET /api/settings and GET /api/schedules.
import type { AgentTools, SessionCreation, SessionEnvironment } from './types';

export interface Settings {
  defaults: { provider: string; model: string; environment: SessionEnvironment };
  sessionboxer: { agentTools: AgentTools; sessionCreation: SessionCreation; globalCap: number };
  environments: SessionEnvironment[];
  autoQa: { afterEachTurn: boolean };
}

export interface Schedule {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  /** The skip policy, when the server reports it. */
  skipMissed?: boolean;
  action:
    | { type: 'prompt'; sessionId: string; text: string }
    | { type: 'new_session'; title: string | null; prompt: string; stopAfter: boolean };
  nextRunAt: string | null;
  lastRunAt: string | null;
}
