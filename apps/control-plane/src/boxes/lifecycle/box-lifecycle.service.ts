import * as fs from 'node:fs';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import {
  boxDecider,
  boxStream,
  sessionDecider,
  sessionStream,
  DomainError,
  ErrorCode,
  type Actor,
  type BoxCommand,
} from '@sessionboxer/domain';
import { boxTtsEnv, type AppConfig } from '../../config';
import type { BoxDriver, BoxFound } from '../driver';
import { BoxSockets } from '../channel/box-sockets';
import { BoxOwnership, LEASE_MS, OwnerRpc } from '../../cluster';
import { CommandBus } from '../../infrastructure/command-bus';
import { APP_CONFIG, BOX_DRIVER } from '../../infrastructure/tokens';
import { boxPaths, daemonLaunch, projectRoot } from './box-paths';
import { SettingsService } from '../../settings';
import { BoxWorkspaceHooks } from './box-workspace-hooks';

const SYSTEM: Actor = { kind: 'system', id: 'box-lifecycle' };

/**
 * A session's box from start to end: provisioned when the session is created, frozen on stop,
 * thawed on resume, and every change recorded as an event of the box's stream.
 */
@Injectable()
export class BoxLifecycle
  implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Boxes');
  private closing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(BOX_DRIVER) private readonly driver: BoxDriver,
    private readonly sockets: BoxSockets,
    private readonly bus: CommandBus,
    private readonly settings: SettingsService,
    private readonly workspaces: BoxWorkspaceHooks,
    private readonly ownership: BoxOwnership,
    private readonly rpc: OwnerRpc,
  ) {}

  /** What another instance asks of the boxes this one runs (see remote()). */
  onModuleInit(): void {
    this.rpc.handle('box.provision', (id) => this.provision(id as string));
    this.rpc.handle('box.freeze', (id) => this.freeze(id as string));
    this.rpc.handle('box.thaw', (id) => this.thaw(id as string));
    this.rpc.handle('box.destroy', (id) => this.destroy(id as string));
    this.ownership.onLost((id) => {
      this.driver.forget(id);
      this.sockets.close(id).catch((e: unknown) => this.logger.warn(String(e)));
    });
  }

  /** A box whose daemon exits unexpectedly has failed (adoption: BoxAdoption). */
  onApplicationBootstrap(): void {
    if (!this.config.boxes) return;
    this.driver.onExit((sessionId, code) => {
      if (this.closing) return;
      const reason = `the box's daemon exited unexpectedly (code ${code ?? 'none'})`;
      // Its running turn fails by the agent's reactor to BoxFailed.
      this.box(sessionId, 'FailBox', { reason }).catch((e: unknown) => this.logger.warn(String(e)));
    });
  }

  /** Takes over a box this instance has just claimed: adopted, recorded, its sockets served. */
  async takeOver(sessionId: string): Promise<boolean> {
    const found = await this.driver.adopt(sessionId);
    if (!found || !(await this.recordFound(found))) return false;
    await this.sockets.listen(sessionId, boxPaths(this.config.dataDir, sessionId).socket);
    return true;
  }

  /**
   * What the driver found of a box an earlier control plane left, as an event of its stream.
   * True when the box is this control plane's now; an adopted box whose stream refuses it
   * (destroyed, or no box of a session here) has nothing to come back to and is ended.
   */
  async recordFound(found: BoxFound): Promise<boolean> {
    const { sessionId, processes } = found;
    try {
      if (processes === 'lost') {
        const reason = found.reason ?? 'its processes are gone';
        await this.box(sessionId, 'LoseBoxProcesses', { reason });
        this.logger.warn(`box ${sessionId}: its processes were lost (${reason}); resume starts it`);
        return false;
      }
      await this.box(sessionId, 'AdoptBox', { processes, pid: found.pid });
      this.logger.log(`box ${sessionId}: adopted, ${processes} (pid ${found.pid})`);
      return true;
    } catch (e) {
      this.logger.warn(`box ${sessionId}: ${String(e)}`);
      if (processes !== 'lost') await this.driver.destroy(sessionId).catch(() => undefined);
      return false;
    }
  }

  /** Creates the box's folders and socket, starts it, and records where everything is. */
  async provision(sessionId: string): Promise<void> {
    if (!(await this.ownership.claim(sessionId))) return this.remote(sessionId, 'box.provision');
    const paths = boxPaths(this.config.dataDir, sessionId);
    fs.mkdirSync(paths.workspace, { recursive: true });
    fs.mkdirSync(paths.runDir, { recursive: true, mode: 0o700 });
    await this.sockets.listen(sessionId, paths.socket);
    const launch = daemonLaunch(this.driver.isolation, paths, projectRoot());
    // The desktop server reads the narration setting from its environment (via .mcp.json).
    const { desktop } = await this.settings.current();
    launch.env.SESSIONBOXER_NARRATION = desktop.narration;
    launch.env.SESSIONBOXER_NARRATION_ASK_SECONDS = String(desktop.askAboveSeconds);
    Object.assign(launch.env, boxTtsEnv(this.config));
    await this.box(sessionId, 'ProvisionBox', {
      workspacePath: paths.workspace,
      mcpJsonPath: paths.mcpJson,
      isolation: this.driver.isolation,
    });
    try {
      // Repositories are cloned in (the repositories module), or why not fails the box.
      await this.workspaces.beforeStart(sessionId, paths.workspace);
      await this.driver.create({
        sessionId,
        workspaceDir: paths.workspace,
        gatewaySocketDir: paths.runDir,
        command: launch.command,
        env: launch.env,
      });
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      await this.box(sessionId, 'FailBox', { reason });
      throw e;
    }
    await this.workspaces.afterStart(sessionId);
  }

  async freeze(sessionId: string): Promise<void> {
    if (!this.ownership.isMine(sessionId)) return this.remote(sessionId, 'box.freeze');
    if (this.driver.info(sessionId)?.status !== 'running') return;
    await this.driver.freeze(sessionId);
    await this.box(sessionId, 'FreezeBox', {});
  }

  async thaw(sessionId: string): Promise<void> {
    if (!this.ownership.isMine(sessionId)) return this.remote(sessionId, 'box.thaw');
    const status = this.driver.info(sessionId)?.status;
    if (status === undefined || status === 'exited' || status === 'destroyed') {
      return this.provision(sessionId);
    }
    await this.driver.thaw(sessionId);
    await this.box(sessionId, 'ThawBox', {});
    // A daemon frozen with its socket open never reconnects, so it is ready again right away.
    if (this.sockets.clientOf(sessionId)?.readyState === 1)
      await this.box(sessionId, 'MarkBoxReady', {});
  }

  /**
   * Ends the box for good: its processes killed and its workspace (and snapshots) removed. What
   * that means for the session (its turn fails, it stops) is the reactors' business
   * (BoxGoneReactor, DestroyedBoxes).
   */
  async destroy(sessionId: string): Promise<void> {
    if (!this.ownership.isMine(sessionId)) return this.remote(sessionId, 'box.destroy');
    if (this.driver.info(sessionId))
      await this.driver.destroy(sessionId, { removeWorkspace: true });
    await this.sockets.close(sessionId);
    fs.rmSync(boxPaths(this.config.dataDir, sessionId).root, { recursive: true, force: true });
    await this.box(sessionId, 'DestroyBox', {});
    await this.ownership.release(sessionId);
  }

  /** The gateway then pushes the daemon its session.json (SessionFileSync). */
  async daemonConnected(sessionId: string): Promise<void> {
    await this.box(sessionId, 'MarkBoxReady', {});
  }

  async daemonDisconnected(sessionId: string): Promise<void> {
    if (this.closing) return;
    await this.box(sessionId, 'MarkBoxDisconnected', {});
  }

  /** The daemon says it opened a Terminal: refused unless the control plane asked for it. */
  async terminalOpened(sessionId: string, t: { terminalId: string }): Promise<void> {
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'ReportTerminalOpened',
      data: { sessionId, terminalId: t.terminalId },
      metadata: this.bus.metadata(SYSTEM),
    });
  }

  async terminalExited(
    sessionId: string,
    t: { terminalId: string; exitCode: number },
  ): Promise<void> {
    await this.bus.execute(sessionDecider, sessionStream(sessionId), {
      type: 'RecordTerminalExited',
      data: { sessionId, terminalId: t.terminalId, exitCode: t.exitCode },
      metadata: this.bus.metadata(SYSTEM, `terminal-exited/${sessionId}/${t.terminalId}`),
    });
  }

  /**
   * Sockets close before anything else shuts down, so a call in flight is never answered with
   * a shutdown error: its daemon resends it to the next control plane instead.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.sockets.closeAll();
  }

  /**
   * Only destroy ends a box: the control-plane process that stops on a signal (an upgrade, a
   * restart) sets `keepBoxesOnShutdown` (main.ts), leaving its boxes running or frozen for the
   * next one to adopt. An app closed in a test process ends the boxes it started.
   */
  async onApplicationShutdown(): Promise<void> {
    if (!this.keepBoxesOnShutdown) await this.driver.shutdownAll();
    // Left running, the boxes are free for another instance to take over at once.
    else await this.ownership.releaseAll();
  }

  keepBoxesOnShutdown = false;

  /**
   * A box this instance does not run: its owner does it. With no owner at all it is taken here
   * (and what was left of it adopted); while the instance that ran it has died but its lease has
   * not run out yet, the caller is told to try again.
   */
  private async remote(sessionId: string, op: string): Promise<void> {
    const owner = await this.ownership.remoteOwner(sessionId);
    if (owner) return this.rpc.call(owner, op, [sessionId]);
    if (!(await this.ownership.claim(sessionId))) {
      throw new DomainError(
        ErrorCode.Unavailable,
        `the instance that ran the box of session ${sessionId} stopped; another takes the box over within ${LEASE_MS / 1000} s, try again then`,
      );
    }
    await this.takeOver(sessionId);
    if (op === 'box.freeze') return this.freeze(sessionId);
    if (op === 'box.thaw') return this.thaw(sessionId);
    if (op === 'box.destroy') return this.destroy(sessionId);
  }

  private async box(sessionId: string, type: BoxCommand['type'], data: object): Promise<void> {
    const command = {
      type,
      data: { sessionId, ...data },
      metadata: this.bus.metadata(SYSTEM),
    } as BoxCommand;
    await this.bus.execute(boxDecider, boxStream(sessionId), command);
  }
}
