/**
 * Snapshots writing into a blob store share it; the collector has it to itself. Takes run
 * side by side (each holds the lock shared while it stores blobs and writes its manifest);
 * a collection waits for the running takes, and takes that come meanwhile wait for it. One
 * lock per blob store folder, in this process: other processes are kept safe by the
 * collector's grace period instead.
 */
export class SnapshotLock {
  private readers = 0;
  private writer: Promise<void> | null = null;
  private drained: (() => void) | null = null;

  async shared<T>(work: () => T | Promise<T>): Promise<T> {
    while (this.writer) await this.writer;
    this.readers++;
    try {
      return await work();
    } finally {
      this.readers--;
      if (this.readers === 0) this.drained?.();
    }
  }

  async exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    while (this.writer) await this.writer;
    let release = () => {};
    this.writer = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.readers > 0) await new Promise<void>((resolve) => (this.drained = resolve));
      this.drained = null;
      return await work();
    } finally {
      this.writer = null;
      release();
    }
  }
}

const locks = new Map<string, SnapshotLock>();

export function snapshotLock(blobRoot: string): SnapshotLock {
  let lock = locks.get(blobRoot);
  if (!lock) locks.set(blobRoot, (lock = new SnapshotLock()));
  return lock;
}
