import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import { ErrorCode } from '@sessionboxer/domain/kernel/errors';
import { type AdoptionContext, adoptBoxes, adoptSaved } from './adopt-boxes';
import { boxStateDir, forgetBox, readSavedBox, saveBox, savedBox, savedBoxIds } from './adoption';
import type { BoxControl, ControlMechanism } from './box-control';
import {
  type BoxDriver,
  BoxError,
  type BoxExitListener,
  type BoxFound,
  type BoxInfo,
  type BoxIsolation,
  type BoxSpec,
  type DestroyOptions,
  type ExecOptions,
  boxInState,
  boxInvalid,
  boxNotFound,
} from './box-driver.port';
import { BoxStillness } from './box-stillness';
import { type BoxRecord, type Started, boxRecord } from './box-record';
import * as checks from './box-spec';
import { chooseHost } from './host-choice';
import {
  type BoxLimits,
  type LimitMechanism,
  type ResourceLimiter,
  enterFilesArgv,
} from './resource-limits';
import type { Isolator } from './isolators';
export { NOT_ISOLATED_WARNING } from './isolators';
import type { BoxExecPlan, BoxLogger, LocalBoxDriverOptions } from './driver-options';
import { type Launched, openBoxLog } from './launch';
export type { BoxExecPlan, BoxLogger, LocalBoxDriverOptions } from './driver-options';

/** The local BoxDriver: bubblewrap boxes (or plain processes), frozen via cgroup or signals. */
export class LocalBoxDriver implements BoxDriver {
  private readonly boxes = new Map<string, BoxRecord>();
  private readonly starting = new Map<string, BoxSpec>();
  private readonly listeners: BoxExitListener[] = [];
  private readonly foundBoxes: BoxFound[] = [];
  private readonly stillness: BoxStillness;

  private constructor(
    private readonly isolator: Isolator,
    private readonly control: BoxControl,
    private readonly limiter: ResourceLimiter,
    private readonly dataDir: string,
    private readonly logDir: string,
    private readonly logger: BoxLogger,
    private readonly defaultLimits?: BoxLimits,
  ) {
    this.stillness = new BoxStillness(control);
  }

  private get stateDir(): string {
    return boxStateDir(this.dataDir);
  }

  /** Probes bubblewrap, the freezer and the limits once (host-choice.ts), then adopts. */
  static async open(options: LocalBoxDriverOptions): Promise<LocalBoxDriver> {
    const h = await chooseHost(options);
    const driver = new LocalBoxDriver(
      h.isolator,
      h.control,
      h.limiter,
      h.dataDir,
      h.logDir,
      h.logger,
      options.defaultLimits,
    );
    driver.foundBoxes.push(...(await adoptBoxes({ ...driver.adoption(), claim: options.claim })));
    return driver;
  }

  found(): readonly BoxFound[] {
    return this.foundBoxes;
  }

  /** A box another instance ran (it died, this one took the box over): adopted as at open. */
  async adopt(sessionId: string): Promise<BoxFound | null> {
    if (this.boxes.has(sessionId) || this.starting.has(sessionId)) return null;
    const box = readSavedBox(this.stateDir, sessionId);
    if (!box) return null;
    return adoptSaved(this.adoption(), box);
  }

  private adoption(): AdoptionContext {
    return {
      control: this.control,
      limiter: this.limiter,
      isolation: this.isolator.isolation,
      logDir: this.logDir,
      stateDir: this.stateDir,
      logger: this.logger,
      keep: (r: BoxRecord) => this.watch(r),
    };
  }

  /** Sessions with a saved box on this data dir, whichever instance runs it. */
  savedBoxes(): string[] {
    return savedBoxIds(this.stateDir);
  }

  /** Lets a box go without touching its processes: another instance runs it now. */
  forget(sessionId: string): void {
    this.boxes.delete(sessionId);
  }

  get isolation(): BoxIsolation {
    return this.isolator.isolation;
  }

  get freezer(): ControlMechanism {
    return this.control.mechanism;
  }

  /** How boxes' cpu and memory are limited (`none`: they are not). */
  get limits(): LimitMechanism {
    return this.limiter.mechanism;
  }

  async create(input: BoxSpec): Promise<BoxInfo> {
    const checked = checks.validateSpec(input, this.dataDir);
    const limits = checked.limits ?? this.defaultLimits;
    const spec = limits ? { ...checked, limits } : checked;
    this.assertFree(spec);
    this.starting.set(spec.sessionId, spec);
    try {
      // The session's previous box (exited) must be fully gone: its cgroup has this name.
      await this.boxes.get(spec.sessionId)?.reaped?.catch(() => undefined);
      await checks.makeBoxDirs(spec, this.dataDir);
      await this.isolator.prepareDirs(spec);
      return { ...(await this.start(spec)) };
    } finally {
      this.starting.delete(spec.sessionId);
    }
  }

  async freeze(sessionId: string): Promise<void> {
    return this.stillness.freeze(this.live(sessionId, 'freeze'));
  }

  async thaw(sessionId: string): Promise<void> {
    return this.stillness.thaw(this.live(sessionId, 'thaw'));
  }

  async hold<T>(sessionId: string, work: () => T | Promise<T>): Promise<T> {
    return this.stillness.hold(this.live(sessionId, 'hold'), work);
  }

  async destroy(sessionId: string, opts: DestroyOptions = {}): Promise<void> {
    checks.assertSessionId(sessionId);
    const r = this.boxes.get(sessionId);
    if (!r) throw boxNotFound(sessionId);
    await this.reap(r);
    r.info.status = 'destroyed';
    if (opts.removeWorkspace) {
      // Re-checked: nothing but a folder inside the data dir is ever removed.
      const dir = checks.pathInside(this.dataDir, r.spec.workspaceDir, 'workspaceDir');
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * What `exec` spawns, for callers that spawn it themselves (an MCP client's stdio transport
   * started "inside the box"). Same checks, same argv.
   */
  execPlan(sessionId: string, argv: string[], opts: ExecOptions = {}): BoxExecPlan {
    checks.assertArgv(argv, 'argv');
    if (opts.env !== undefined) checks.assertEnv(opts.env, 'env');
    if (opts.cwd !== undefined && !(path.posix.isAbsolute(opts.cwd) && !opts.cwd.includes('\0'))) {
      throw boxInvalid('cwd', 'must be an absolute path inside the box');
    }
    const r = this.live(sessionId, 'exec into');
    if (r.info.status !== 'running') throw boxInState(sessionId, r.info.status, 'exec into');
    const env = { ...r.env, ...opts.env, SESSIONBOXER_SESSION_ID: sessionId };
    const target = { nsInitPid: r.procs.nsInitPid, workspaceDir: r.spec.workspaceDir };
    const plan = this.isolator.exec(target, argv, env, opts.cwd);
    const full = [...this.enterArgv(r.spec), ...plan.argv];
    return { command: full[0], args: full.slice(1), env: plan.env, cwd: plan.cwd };
  }

  exec(sessionId: string, argv: string[], opts: ExecOptions = {}): ChildProcess {
    const plan = this.execPlan(sessionId, argv, opts);
    const r = this.live(sessionId, 'exec into');
    const child = spawn(plan.command, plan.args, { env: plan.env, cwd: plan.cwd, stdio: 'pipe' });
    r.execs.add(child);
    child.once('exit', () => r.execs.delete(child));
    return child;
  }

  info(sessionId: string): BoxInfo | null {
    const r = this.boxes.get(sessionId);
    if (!r) return null;
    const limits = r.spec.limits;
    if (!limits) return { ...r.info };
    const { mechanism } = this.limiter;
    return {
      ...r.info,
      limits: { ...limits, mechanism, oomKills: this.limiter.oomKills(sessionId) },
    };
  }

  onExit(listener: BoxExitListener): void {
    this.listeners.push(listener);
  }

  async shutdownAll(): Promise<void> {
    const live = [...this.boxes.values()].filter((r) => !r.reaped);
    const results = await Promise.allSettled(live.map((r) => this.reap(r)));
    results.forEach((res, i) => {
      live[i].info.status = 'destroyed';
      if (res.status === 'rejected') {
        this.logger.warn(`box ${live[i].spec.sessionId}: shutdown failed: ${String(res.reason)}`);
      }
    });
    await this.control.tidy();
    await this.limiter.tidy();
  }

  private assertFree(spec: BoxSpec): void {
    const id = spec.sessionId;
    const current = this.boxes.get(id);
    if (this.starting.has(id) || (current && !current.reaped)) {
      throw new BoxError(ErrorCode.AlreadyExists, `box ${id} already exists`, { sessionId: id });
    }
    const live = [...this.boxes.values()].filter((r) => !r.reaped).map((r) => r.spec);
    checks.assertSeparate(spec, [...this.starting.values(), ...live]);
  }

  private async start(spec: BoxSpec): Promise<BoxInfo> {
    const env = this.isolator.env(spec);
    const { io } = openBoxLog(this.logDir, spec.sessionId);
    await this.control.prepare(spec.sessionId);
    let launched: Launched;
    try {
      if (spec.limits) await this.limiter.prepare(spec.sessionId, spec.limits);
      launched = await this.isolator.launch(spec, env, this.enterArgv(spec), io);
    } catch (e) {
      await this.control.release(spec.sessionId).catch(() => undefined);
      await this.limiter.release(spec.sessionId).catch(() => undefined);
      throw new BoxError(ErrorCode.Unavailable, `box ${spec.sessionId}: ${(e as Error).message}`);
    } finally {
      closeSync(io.output);
    }
    saveBox(this.stateDir, savedBox(spec, env, this.isolation, launched));
    this.register(spec, env, { launched, tail: io.tail, status: 'running' });
    return this.info(spec.sessionId) as BoxInfo;
  }

  /** The freezer's group, then the limit groups: entered before the process runs anything. */
  private enterArgv(spec: BoxSpec): string[] {
    const limits = spec.limits ? this.limiter.enterFiles(spec.sessionId) : [];
    const files = [...this.control.enterFiles(spec.sessionId), ...limits];
    return files.length > 0 ? enterFilesArgv(files) : [];
  }

  private register(spec: BoxSpec, env: Record<string, string>, started: Started): BoxRecord {
    const { isolation, warning } = this.isolator;
    if (warning) this.logger.warn(`!!! box ${spec.sessionId} is ${warning} !!!`);
    return this.watch(boxRecord(spec, env, isolation, started, warning));
  }

  private watch(r: BoxRecord): BoxRecord {
    this.boxes.set(r.spec.sessionId, r);
    void r.launched.exited.then(({ code, signal }) => this.mainExited(r, code, signal));
    return r;
  }

  private async mainExited(r: BoxRecord, code: number | null, signal: string | null) {
    if (r.reaped) return; // destroy or shutdown asked for it
    if (this.boxes.get(r.spec.sessionId) !== r) return; // forgotten: another instance's now
    r.info.status = 'exited';
    const id = r.spec.sessionId;
    this.logger.warn(`box ${id} exited (code ${code}, signal ${signal}): ${r.tail.toString()}`);
    await this.reap(r).catch((e) => this.logger.warn(`box ${id}: cleanup: ${String(e)}`));
    for (const listener of this.listeners) {
      try {
        listener(id, code);
      } catch (e) {
        this.logger.warn(`box ${id}: exit listener threw: ${String(e)}`);
      }
    }
  }

  /** Kills everything of the box once, however many callers ask. */
  private reap(r: BoxRecord): Promise<void> {
    r.reaped ??= (async () => {
      await this.control.kill(r.procs);
      r.launched.kill(); // the outer bwrap, if it was not in the group
      for (const c of r.execs) c.kill('SIGKILL');
      await r.launched.exited;
      await this.control.release(r.spec.sessionId);
      await this.limiter.release(r.spec.sessionId);
      forgetBox(this.stateDir, r.spec.sessionId);
    })();
    return r.reaped;
  }

  private live(sessionId: string, action: string): BoxRecord {
    checks.assertSessionId(sessionId);
    const r = this.boxes.get(sessionId);
    if (!r) throw boxNotFound(sessionId);
    if (r.reaped) throw boxInState(sessionId, r.info.status, action);
    return r;
  }
}
