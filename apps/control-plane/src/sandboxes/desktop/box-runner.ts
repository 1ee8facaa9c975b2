import type { ChildProcess } from 'node:child_process';
import type { BoxDriver } from '../../boxes';
import { CommandError, type RunOptions } from '../../../../box-agent/src/desktop/run';

/**
 * One node process in the box, started through the driver's exec at the desktop's first
 * capture and kept: each request (a JSON line on its stdin: argv, env, limits) runs as a
 * process of the box with execFile (no shell), and its stdout comes back as one frame
 * (id, ok, length, bytes). A screenshot then costs an xwd started next to the display
 * instead of a spawn chain from the control plane. If it ends, the next request starts one.
 */
const RUNNER = `
const { execFile } = require('child_process');
let buf = '';
const frame = (id, ok, data) => {
  const head = Buffer.alloc(9);
  head.writeUInt32BE(id, 0); head[4] = ok ? 1 : 0; head.writeUInt32BE(data.length, 5);
  process.stdout.write(Buffer.concat([head, data]));
};
process.stdin.setEncoding('utf8').on('data', (t) => {
  buf += t;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const r = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    execFile(r.argv[0], r.argv.slice(1), {
      encoding: 'buffer', env: { ...process.env, ...r.env }, timeout: r.timeoutMs,
      killSignal: 'SIGKILL', maxBuffer: r.maxBuffer,
    }, (e, out, err) => {
      if (!e) return frame(r.id, true, out);
      const why = e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? r.argv[0] + ' wrote more than expected'
        : e.killed ? r.argv[0] + ' did not finish within ' + r.timeoutMs + ' ms'
        : r.argv[0] + ' failed: ' + (String(err).trim().split('\\n').pop() || e.message);
      frame(r.id, false, Buffer.from(why));
    });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

interface Waiter {
  resolve(b: Buffer): void;
  reject(e: Error): void;
}

export class BoxRunner {
  private child: ChildProcess | null = null;
  private readonly waiting = new Map<number, Waiter>();
  private readonly head = Buffer.alloc(9);
  private headFill = 0;
  private body: Buffer | null = null;
  private bodyFill = 0;
  private next = 0;

  constructor(
    private readonly driver: BoxDriver,
    private readonly sandboxId: string,
  ) {}

  run(command: string, args: readonly string[], opts: RunOptions): Promise<Buffer> {
    const child = this.child ?? this.start();
    const id = (this.next = (this.next + 1) >>> 0);
    const request = {
      id,
      argv: [command, ...args],
      env: { DISPLAY: opts.display },
      timeoutMs: opts.timeoutMs,
      maxBuffer: opts.maxBuffer ?? 1 << 20,
    };
    return new Promise<Buffer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      child.stdin?.write(`${JSON.stringify(request)}\n`);
    });
  }

  close(): void {
    this.child?.stdin?.end();
    this.child?.kill('SIGKILL');
  }

  private start(): ChildProcess {
    const child = this.driver.exec(this.sandboxId, [process.execPath, '-e', RUNNER], {});
    this.child = child;
    this.headFill = 0;
    this.body = null;
    child.stdin?.on('error', () => undefined);
    child.stderr?.resume();
    child.stdout?.on('data', (d: Buffer) => this.onData(d));
    const gone = () => {
      if (this.child !== child) return;
      this.child = null;
      const error = new CommandError('the desktop runner in the box ended');
      for (const w of this.waiting.values()) w.reject(error);
      this.waiting.clear();
    };
    child.once('error', gone);
    child.once('close', gone);
    return child;
  }

  /** Frames copied once into a buffer of their announced size (a capture is ~4 MB). */
  private onData(d: Buffer): void {
    let at = 0;
    while (at < d.length) {
      if (this.body === null) {
        const n = Math.min(9 - this.headFill, d.length - at);
        d.copy(this.head, this.headFill, at, at + n);
        this.headFill += n;
        at += n;
        if (this.headFill < 9) return;
        this.body = Buffer.allocUnsafe(this.head.readUInt32BE(5));
        this.bodyFill = 0;
        if (this.body.length === 0) {
          this.deliver(this.body);
          continue;
        }
      }
      const n = Math.min(this.body.length - this.bodyFill, d.length - at);
      d.copy(this.body, this.bodyFill, at, at + n);
      this.bodyFill += n;
      at += n;
      if (this.bodyFill === this.body.length) this.deliver(this.body);
    }
  }

  private deliver(data: Buffer): void {
    const id = this.head.readUInt32BE(0);
    const ok = this.head[4] === 1;
    this.body = null;
    this.headFill = 0;
    const w = this.waiting.get(id);
    this.waiting.delete(id);
    if (ok) w?.resolve(data);
    else w?.reject(new CommandError(data.toString('utf8')));
  }
}
