import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { controlPlaneTools, e2eTools, ToolHandlers } from '@sessionboxer/mcp-adapters';

/**
 * The handler registries of the tools a box's calls reach on the control plane: the
 * sessionboxer tools answered here and the Auto QA tools. Each feature registers the handlers
 * of the tools it owns (in its `*.tools.ts`, at module init); at bootstrap every tool must
 * have exactly one, or the control plane does not start (it names the ones missing).
 */
@Injectable()
export class CallHandlers implements OnApplicationBootstrap {
  readonly sessionboxer = new ToolHandlers('sessionboxer tool', controlPlaneTools);
  readonly e2e = new ToolHandlers('Auto QA tool', e2eTools);

  onApplicationBootstrap(): void {
    this.sessionboxer.assertComplete();
    this.e2e.assertComplete();
  }
}
