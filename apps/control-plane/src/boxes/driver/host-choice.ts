import { mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { BoxControl } from './box-control';
import * as checks from './box-spec';
import { chooseLimiter } from './choose-limiter';
import { chooseControl } from './controls';
import type { BoxLogger, LocalBoxDriverOptions } from './driver-options';
import { BubblewrapIsolator, type Isolator, chooseIsolator } from './isolators';
import type { ResourceLimiter } from './resource-limits';

export interface HostChoice {
  dataDir: string;
  logDir: string;
  logger: BoxLogger;
  isolator: Isolator;
  control: BoxControl;
  limiter: ResourceLimiter;
}

/**
 * What the local driver uses on this host, probed once when it opens and logged in one line,
 * e.g. `boxes: bubblewrap isolation, cgroup-v2 freezer, cgroup-v1 cpu and memory limits`.
 */
export async function chooseHost(options: LocalBoxDriverOptions): Promise<HostChoice> {
  const dataDir = path.resolve(options.dataDir);
  const logDir = path.resolve(options.logDir ?? path.join(dataDir, 'logs'));
  await mkdir(dataDir, { recursive: true });
  const logger = options.logger ?? console;
  if (options.defaultLimits) checks.assertLimits(options.defaultLimits, 'defaultLimits');
  const isolator = await chooseIsolator({
    isolation: options.isolation ?? 'auto',
    projectRoot: options.projectRoot,
    // The default logDir is inside the data dir, hidden with it.
    privateDirs: [
      ...(checks.isStrictlyInside(dataDir, logDir) ? [dataDir] : [dataDir, logDir]),
      ...(options.privatePaths ?? []).map((p) => path.resolve(p)),
    ],
    identity: options.identity,
    warn: (m) => logger.warn(m),
  });
  const freezer = options.freezer ?? 'auto';
  const control = await chooseControl(freezer, options.cgroupRoot, dataDir, logger);
  const limiter = await chooseLimiter(
    options.limits ?? 'auto',
    options.cgroupRoot,
    dataDir,
    logger,
  );
  const mapped = isolator instanceof BubblewrapIsolator ? isolator.identity : null;
  const who = mapped ? ` (root in a box is host uid ${mapped.uid})` : '';
  const limits = `${limiter.mechanism} cpu and memory limits`;
  logger.log(
    `boxes: ${isolator.isolation} isolation${who}, ${control.mechanism} freezer, ${limits}`,
  );
  return { dataDir, logDir, logger, isolator, control, limiter };
}
