import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import { SIZE_TABLE } from '@sessionboxer/domain/sandbox';
import type { AppConfig } from '../config';
import { assertRoom, overQuota, sizeLimits, type BoxDriver, type Quota } from '../boxes';
import { APP_CONFIG, BOX_DRIVER } from '../infrastructure/tokens';
import type { SqliteReadModelStore } from '@sessionboxer/projections';
import { sandboxQueries } from '@sessionboxer/projections/sandboxes.projection';
import { READ_MODELS } from '../infrastructure/tokens';

const run = promisify(execFile);

/**
 * The box's main process: nothing but a holder. No daemon is needed for exec and files
 * (they enter the box's namespaces directly); an agent's turn starts the edge forwarder it
 * needs (sandbox-forwarder.ts). /root is the workspace's `root` folder, so what is written
 * there is kept, copied by fork and seen again on resume.
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
    @Inject(READ_MODELS) private readonly readModels: SqliteReadModelStore,
  ) {}

  /** The size's cpu and memory for the box, its disk_gib as the workspace quota (scaled). */
  private limits(sandboxId: string) {
    const size = sandboxQueries(this.readModels).get(sandboxId)?.settings?.size ?? 'small';
    return { size, ...sizeLimits(size, this.config.boxLimits) };
  }

  private quota(sandboxId: string): Quota {
    const { size, diskBytes } = this.limits(sandboxId);
    const workspaceDir = sandboxPaths(this.config.dataDir, sandboxId).workspace;
    return { workspaceDir, quotaBytes: diskBytes, diskGib: SIZE_TABLE[size].disk_gib };
  }

  /** Refuses (limit_reached) a file write that would pass the sandbox's disk quota. */
  assertRoom(sandboxId: string, file: string, bytes: number): Promise<void> {
    return assertRoom(this.quota(sandboxId), file, bytes);
  }

  /**
   * A line for a command's answer when the workspace is past its quota, else null. `measured`
   * is what the box's exec agent found after the command: within the quota it is taken as it
   * is (the box's word can only hide its own note; file writes are checked on the host); past
   * it, or not measured, the host's du decides.
   */
  overQuota(sandboxId: string, measured: number | null = null): Promise<string | null> {
    const quota = this.quota(sandboxId);
    if (measured !== null && measured <= quota.quotaBytes) return Promise.resolve(null);
    return overQuota(quota);
  }

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
      limits: this.limits(sandboxId).box,
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

  /** The host folder bound at /run/sessionboxer in the box (its edge socket's). */
  runDir(sandboxId: string): string {
    return sandboxPaths(this.config.dataDir, sandboxId).runDir;
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
