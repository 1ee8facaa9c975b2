import { Injectable } from '@nestjs/common';
import { handleE2eCall } from '@sessionboxer/mcp-adapters';
import { CommandBus } from '../infrastructure/command-bus';
import { ControlPlaneE2ePort } from './control-plane-e2e-port';
import { Verifications } from './verifications.service';

/**
 * The `e2e` route of a box's calls (the daemon's /e2e): the Auto QA tools, checked with their
 * own schemas again and run against a port bound to the calling session and call.
 */
@Injectable()
export class E2eCalls {
  constructor(
    private readonly verifications: Verifications,
    private readonly bus: CommandBus,
  ) {}

  handle(sessionId: string, callId: string, tool: string, args: unknown): Promise<unknown> {
    const port = new ControlPlaneE2ePort(this.verifications, this.bus, sessionId, callId);
    return handleE2eCall(port, tool, args);
  }
}
