import * as path from 'node:path';
import { adoptedLaunch, forgetBox, type SavedBox, savedBoxes, whyGone } from './adoption';
import type { BoxControl } from './box-control';
import type { BoxFound, BoxIsolation } from './box-driver.port';
import { type BoxRecord, boxRecord } from './box-record';
import { OutputTail } from './launch';
import type { ResourceLimiter } from './resource-limits';

export interface AdoptionContext {
  control: BoxControl;
  limiter: ResourceLimiter;
  /** What this driver makes: a box of the other kind is not adopted. */
  isolation: BoxIsolation;
  logDir: string;
  stateDir: string;
  logger: { log(message: string): void; warn(message: string): void };
  /** The driver takes the adopted box as its own (watches its main process). */
  keep(record: BoxRecord): void;
  /** Another instance's boxes (and half-started ones) are skipped: see LocalBoxDriverOptions. */
  claim?: (sessionId: string) => Promise<boolean>;
}

/**
 * Takes back every box an earlier control plane of this data dir left (see adoption.ts):
 * alive, it is this driver's again, running or frozen as it was; gone (a reboot, its group
 * killed), it is `lost`, and what is left of it (an empty group, its saved state) is removed.
 * A group no saved box names is a half-started box's: killed.
 */
export async function adoptBoxes(ctx: AdoptionContext): Promise<BoxFound[]> {
  const { boxes, bad } = savedBoxes(ctx.stateDir);
  for (const name of bad) ctx.logger.warn(`boxes: dropped unreadable box state ${name}`);
  const found: BoxFound[] = [];
  const others = new Set<string>();
  for (const box of boxes) {
    if (ctx.claim && !(await ctx.claim(box.spec.sessionId))) others.add(box.spec.sessionId);
    else found.push(await adoptSaved(ctx, box));
  }
  const kept = new Set(found.filter((f) => f.processes !== 'lost').map((f) => f.sessionId));
  for (const id of await ctx.control.groups()) {
    if (kept.has(id) || others.has(id)) continue;
    // A group no saved box names: a half-started box's, unless another instance is starting it.
    if (ctx.claim && !(await ctx.claim(id))) continue;
    await ctx.control.release(id).catch(() => undefined);
  }
  for (const id of await ctx.limiter.groups()) {
    if (kept.has(id) || others.has(id)) continue;
    if (ctx.claim && !(await ctx.claim(id))) continue;
    await ctx.limiter.release(id).catch(() => undefined);
  }
  if (found.length > 0) {
    const counts = (['running', 'frozen', 'lost'] as const).map(
      (p) => `${found.filter((f) => f.processes === p).length} ${p}`,
    );
    ctx.logger.log(`boxes: found ${found.length} left by an earlier run (${counts.join(', ')})`);
  }
  return found;
}

/** Takes back one saved box: alive, the driver's again; gone, `lost` and forgotten. */
export async function adoptSaved(ctx: AdoptionContext, box: SavedBox): Promise<BoxFound> {
  const sessionId = box.spec.sessionId;
  const launched = adoptedLaunch(box);
  const tail = new OutputTail(path.join(ctx.logDir, `box-${sessionId}.log`), 0);
  const r = boxRecord(box.spec, box.env, box.isolation, { launched, tail, status: 'running' });
  const other = box.isolation !== ctx.isolation;
  const reason = other ? `it is a ${box.isolation} box` : whyGone(box);
  const processes = reason ? null : await ctx.control.found(r.procs);
  if (processes === null) {
    // Only what is certainly the box's is killed: its group, or its processes while alive.
    if (!reason || other) await ctx.control.kill(r.procs).catch(() => undefined);
    if (other) launched.kill();
    await ctx.control.release(sessionId).catch(() => undefined);
    await ctx.limiter.release(sessionId).catch(() => undefined);
    forgetBox(ctx.stateDir, sessionId);
    return { sessionId, processes: 'lost', reason: reason ?? 'its processes are gone' };
  }
  r.info.status = processes;
  ctx.keep(r);
  return { sessionId, processes, pid: launched.mainPid };
}
