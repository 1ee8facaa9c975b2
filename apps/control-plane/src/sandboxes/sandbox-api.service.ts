import { Injectable } from '@nestjs/common';
import { SandboxDesktop } from './desktop/sandbox-desktop.service';
import { Environments } from './environments.service';
import { SandboxAgents } from './sandbox-agents';
import { SandboxWork } from './sandbox-work';
import { Sandboxes } from './sandboxes.service';
import { SandboxTokens } from './tokens/sandbox-tokens.service';
import type { SandboxApi } from './tools';

/** The services every tool's handler reaches, in one value. */
@Injectable()
export class SandboxApiService {
  readonly services: SandboxApi;

  constructor(
    sandboxes: Sandboxes,
    work: SandboxWork,
    environments: Environments,
    agents: SandboxAgents,
    desktop: SandboxDesktop,
    tokens: SandboxTokens,
  ) {
    this.services = { sandboxes, work, environments, agents, desktop, tokens };
  }
}
