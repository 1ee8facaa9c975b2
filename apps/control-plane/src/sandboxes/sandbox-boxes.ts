import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config';
import type { BoxDriver } from '../boxes';
import { APP_CONFIG, BOX_DRIVER } from '../infrastructure/tokens';

const run = promisify(execFile);

/**
 * The box's main process: nothing but a holder. No daemon is needed for exec and files
 * (they enter the box's namespaces directly). /root is the workspace's `root` folder, so what
 * is written there is kept, copied by fork and seen again on resume.
 */
export const SANDBOX_MAIN = [
  '/bin/sh',
  '-c',
  'mkdir -p /workspace/root && ln -sfn /workspace/root /root; exec sleep infinity',
];

/** Where a sandbox's files are on the host: inside the data dir, never seen by other boxes. */
export function sandboxPaths(dataDir: string, sandboxId: string) {
  const root = path.join(dataDir, 'sandboxes', sandboxId);
  return { root, workspace: path.join(root, 'workspace'), runDir: path.join(root, 'run') };
}

/**
 * A sandbox's box, through the same BoxDriver the sessions use: started on create, frozen on
 * stop (files and processes kept), thawed on resume, destroyed with its files.
 */
@Injectable()
export class SandboxBoxes {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
  ) {}

  get driverPort(): BoxDriver {
    return this.driver;
  }

  async start(sandboxId: string, copyFrom?: string): Promise<void> {
    const paths = sandboxPaths(this.config.dataDir, sandboxId);
    fs.mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
    if (copyFrom !== undefined) {
      const source = sandboxPaths(this.config.dataDir, copyFrom).workspace;
      // Every file, uncommitted work included; owners and modes as they are.
      await run('cp', ['-a', '--reflink=auto', '--', source, paths.workspace]);
    } else {
      fs.mkdirSync(path.join(paths.workspace, 'root'), { recursive: true });
    }
    await this.driver.create({
      sessionId: sandboxId,
      workspaceDir: paths.workspace,
      gatewaySocketDir: paths.runDir,
      command: SANDBOX_MAIN,
      env: { HOME: '/root' },
    });
  }

  /**
   * A running sandbox whose box is gone (a restart of the control plane ended it, or the host
   * rebooted) starts again over its files; its processes are lost, its files are kept.
   */
  async ensureRunning(sandboxId: string): Promise<void> {
    const status = this.driver.info(sandboxId)?.status;
    if (status === 'running') return;
    if (status === 'frozen') return this.driver.thaw(sandboxId);
    if (status !== undefined) await this.driver.destroy(sandboxId).catch(() => undefined);
    await this.start(sandboxId, undefined);
  }

  async freeze(sandboxId: string): Promise<void> {
    if (this.driver.info(sandboxId)?.status === 'running') await this.driver.freeze(sandboxId);
  }

  /** Thaws a frozen box; starts it again over its files when its processes are gone. */
  async thaw(sandboxId: string): Promise<void> {
    const info = this.driver.info(sandboxId);
    if (info?.status === 'frozen') return this.driver.thaw(sandboxId);
    if (info?.status === 'running') return;
    if (info !== null) await this.driver.destroy(sandboxId).catch(() => undefined);
    await this.start(sandboxId, undefined);
  }

  async destroy(sandboxId: string): Promise<void> {
    if (this.driver.info(sandboxId) !== null) {
      await this.driver.destroy(sandboxId, { removeWorkspace: true });
    }
    fs.rmSync(sandboxPaths(this.config.dataDir, sandboxId).root, { recursive: true, force: true });
  }
}
