import { Injectable } from '@nestjs/common';

/**
 * Told when a box is provisioned: before it starts (its workspace is a host folder no box
 * process runs in, so the control plane may fill it) and right after (exec works). A module
 * registers in onModuleInit, so the boxes module knows none of them.
 */
export interface BoxWorkspaceHook {
  /** Throwing fails the box with the error's message (its `failure`). */
  beforeStart(sessionId: string, workspace: string): Promise<void>;
  /** The box runs; errors are the hook's to log: the box is up whatever they were. */
  afterStart(sessionId: string): Promise<void>;
}

@Injectable()
export class BoxWorkspaceHooks {
  private readonly hooks: BoxWorkspaceHook[] = [];

  register(hook: BoxWorkspaceHook): void {
    this.hooks.push(hook);
  }

  async beforeStart(sessionId: string, workspace: string): Promise<void> {
    for (const hook of this.hooks) await hook.beforeStart(sessionId, workspace);
  }

  async afterStart(sessionId: string): Promise<void> {
    for (const hook of this.hooks) await hook.afterStart(sessionId);
  }
}
