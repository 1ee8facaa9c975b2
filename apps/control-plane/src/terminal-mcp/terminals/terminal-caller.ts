import type { Actor } from '@sessionboxer/domain';
import type { TerminalListener } from './terminal-runtime';

/** Who is calling over MCP: its AgentSession (the connection) and how to name it on a card. */
export interface TerminalCaller {
  owner: string;
  actor: Actor;
  requester: string;
  listener: TerminalListener | null;
  /** The Sessionboxer session whose agent calls (through the MCP registry's relay), if one. */
  forSession?: string;
}
