import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { BoxIsolation } from '../box-driver.port';
import type { ControlMechanism } from '../box-control';
import { dataDirTag } from '../controls';
import { type Kit, delay, hostPidsWith, lineCount, openKit, until } from './box-test-kit';

/**
 * A box that appends a counter to a file every 20 ms, and starts a grandchild that left its
 * session and its parent (setsid + double fork) and writes another file: both stop while the
 * box is frozen, go on after thaw, and die with destroy.
 */
function writerCommand(marker: string, dir: string): string[] {
  const loop = (file: string) =>
    `i=0; while :; do i=$((i+1)); echo $i >> ${dir}/${file}; sleep 0.02; done`;
  const escapee = `setsid /bin/sh -c '${loop('escapee')}' ${marker}-escapee &`;
  return ['/bin/sh', '-c', `(${escapee}) & ${loop('counter')}`, `${marker}-main`];
}

/** Cgroups named after the box, whichever control plane owns them. */
function boxCgroups(dataDir: string, sessionId: string): string[] {
  const parent = path.join('/sys/fs/cgroup/unified/sessionboxer', dataDirTag(dataDir));
  // Each box's group sits in the data dir's folder itself, not under a control plane's.
  const dir = path.join(parent, `box-${sessionId}`);
  return existsSync(dir) ? [dir] : [];
}

const cases: [BoxIsolation, ControlMechanism][] = [
  ['bubblewrap', 'cgroup-v2'],
  ['bubblewrap', 'signals'],
  ['process', 'cgroup-v2'],
];

describe.each(cases)('%s box frozen with %s', (isolation, freezer) => {
  let kit: Kit;

  beforeAll(async () => {
    kit = await openKit({ isolation, freezer });
    expect(kit.driver.freezer).toBe(freezer);
  });
  afterAll(() => kit.close());

  async function startWriter() {
    const marker = `sbx-${Math.floor(Math.random() * 1e9)}`;
    const s0 = kit.spec([]);
    const dir = isolation === 'bubblewrap' ? '/workspace' : s0.workspaceDir;
    const spec = { ...s0, command: writerCommand(marker, dir) };
    await kit.driver.create(spec);
    const counter = path.join(spec.workspaceDir, 'counter');
    const escapee = path.join(spec.workspaceDir, 'escapee');
    await until(() => lineCount(counter) > 3 && lineCount(escapee) > 3);
    return { id: spec.sessionId, marker, counter, escapee, ws: spec.workspaceDir };
  }

  it('stops every process while frozen and resumes them on thaw', async () => {
    const box = await startWriter();
    await kit.driver.freeze(box.id);
    expect(kit.driver.info(box.id)?.status).toBe('frozen');
    await delay(50); // a write already past the freeze may land
    const frozen = [lineCount(box.counter), lineCount(box.escapee)];
    await delay(300);
    expect([lineCount(box.counter), lineCount(box.escapee)]).toEqual(frozen);
    expect(() => kit.driver.exec(box.id, ['/bin/true'])).toThrow(/frozen/);

    await kit.driver.thaw(box.id);
    expect(kit.driver.info(box.id)?.status).toBe('running');
    await until(
      () => lineCount(box.counter) > frozen[0] + 3 && lineCount(box.escapee) > frozen[1] + 3,
    );
    await kit.driver.destroy(box.id);
  });

  it('hold keeps the box still for its work, and a stop asked for meanwhile stays', async () => {
    const box = await startWriter();
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let during: number[] = [];
    const held = kit.driver.hold(box.id, async () => {
      await delay(50);
      during = [lineCount(box.counter), lineCount(box.escapee)];
      await released;
      return 'done';
    });
    await until(() => during.length > 0);
    // A stop (the lifecycle's freeze) while the snapshot holds the box still.
    const stopped = kit.driver.freeze(box.id);
    await delay(200);
    expect([lineCount(box.counter), lineCount(box.escapee)]).toEqual(during);
    release();
    await expect(held).resolves.toBe('done');
    await stopped;
    expect(kit.driver.info(box.id)?.status).toBe('frozen');
    await delay(50);
    const after = [lineCount(box.counter), lineCount(box.escapee)];
    await delay(300);
    expect([lineCount(box.counter), lineCount(box.escapee)]).toEqual(after);
    await kit.driver.destroy(box.id);
  });

  it('destroy kills the whole tree, the setsid double-forked escapee too', async () => {
    const box = await startWriter();
    expect(hostPidsWith(box.marker).length).toBeGreaterThanOrEqual(2);
    await kit.driver.destroy(box.id);
    expect(kit.driver.info(box.id)?.status).toBe('destroyed');
    expect(hostPidsWith(box.marker)).toEqual([]);
    const after = [lineCount(box.counter), lineCount(box.escapee)];
    await delay(100);
    expect([lineCount(box.counter), lineCount(box.escapee)]).toEqual(after);
    expect(existsSync(box.ws)).toBe(true); // kept unless asked
  });

  it('destroys a frozen box and removes its workspace when asked', async () => {
    const box = await startWriter();
    await kit.driver.freeze(box.id);
    await kit.driver.destroy(box.id, { removeWorkspace: true });
    expect(hostPidsWith(box.marker)).toEqual([]);
    expect(existsSync(box.ws)).toBe(false);
    await expect(kit.driver.freeze(box.id)).rejects.toThrow(/destroyed/);
  });

  it('leaves no cgroup behind', async () => {
    const box = await startWriter();
    const groups = () => boxCgroups(kit.dataDir, box.id);
    expect(groups().length).toBe(freezer === 'cgroup-v2' ? 1 : 0);
    await kit.driver.destroy(box.id);
    expect(groups()).toEqual([]);
  });
});
