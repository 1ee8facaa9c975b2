import type { ChildProcess } from 'node:child_process';
import { Logger } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import { EXEC_OUTPUT_MAX_BYTES, refusal } from '@sessionboxer/domain/sandbox';
import type { BoxDriver } from '../boxes';
import { EXEC_AGENT_SCRIPT } from './exec-agent.script';
import { execInBox, timeoutRefusal, type ExecAnswer, type ExecRequest } from './sandbox-exec';

/** perl-base is essential on Debian: the box has it from the host's read-only /usr. */
const PERL = '/usr/bin/perl';
/** An answer holds at most 1 MB of each stream; anything larger is not the agent speaking. */
const MAX_FRAME = 2 * EXEC_OUTPUT_MAX_BYTES + 64 * 1024;
const logger = new Logger('SandboxExec');

/** A command's answer and the workspace's size measured after it (null: not measured). */
export interface MeasuredAnswer extends ExecAnswer {
  usedBytes: number | null;
}

/** The agent ended before it said ready: it ran nothing, so the request may go another way. */
class NotStarted extends Error {}

function frame(id: number, fields: string[]): Buffer {
  const parts = fields.map((f) => Buffer.from(f, 'utf8'));
  const head = Buffer.alloc(8 + 4 * parts.length);
  head.writeUInt32BE(id, 0);
  head.writeUInt32BE(
    parts.reduce((n, p) => n + 4 + p.length, 0),
    4,
  );
  const out: Buffer[] = [head.subarray(0, 8)];
  parts.forEach((p, i) => {
    head.writeUInt32BE(p.length, 8 + 4 * i);
    out.push(head.subarray(8 + 4 * i, 12 + 4 * i), p);
  });
  return Buffer.concat(out);
}

function fieldsOf(body: Buffer): Buffer[] | null {
  const fields: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    if (at + 4 > body.length) return null;
    const n = body.readUInt32BE(at);
    if (at + 4 + n > body.length) return null;
    fields.push(body.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return fields;
}

/**
 * One box's exec agent: started with the driver's exec at the box's first command, so it is
 * in the box's namespaces and cgroups with the exec's capabilities, and every command it
 * forks is too; frozen and thawed with the box; ended with it (its parent-death signal) or
 * when its stdin closes. What it sends is read as untrusted: a frame past the size an answer
 * can have ends it.
 */
class ExecAgent {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (answer: Buffer[] | Error) => void>();
  private chunks: Buffer[] = [];
  private buffered = 0;
  private nextId = 1;
  private ready = false;
  ended = false;

  constructor(
    driver: BoxDriver,
    sandboxId: string,
    readonly boxPid: number,
    private readonly onEnd: (agent: ExecAgent, code: number | null) => void,
  ) {
    this.child = driver.exec(sandboxId, [PERL, '-e', EXEC_AGENT_SCRIPT], {});
    this.child.stdin?.on('error', () => undefined);
    this.child.stderr?.resume();
    this.child.stdout?.on('data', (d: Buffer) => this.read(d));
    this.child.once('error', () => this.end(null));
    // 'close', not 'exit': every answer it wrote has been read by then.
    this.child.once('close', (code: number | null) => this.end(code));
  }

  run(req: ExecRequest, command: string): Promise<Buffer[]> {
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffffffff ? 1 : this.nextId + 1;
    const env = Object.entries(req.env).map(([k, v]) => `${k}=${v}`);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (a) => (a instanceof Error ? reject(a) : resolve(a)));
      this.child.stdin?.write(frame(id, [req.cwd, String(req.timeoutSeconds), command, ...env]));
    });
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }

  private read(d: Buffer): void {
    this.chunks.push(d);
    this.buffered += d.length;
    while (this.buffered >= 8) {
      if (this.chunks[0].length < 8) this.chunks = [Buffer.concat(this.chunks)];
      const id = this.chunks[0].readUInt32BE(0);
      const length = this.chunks[0].readUInt32BE(4);
      if (length > MAX_FRAME) return this.stop();
      if (this.buffered < 8 + length) return; // joined once it is whole, not at every chunk
      const buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      const fields = fieldsOf(buf.subarray(8, 8 + length));
      const rest = buf.subarray(8 + length);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      if (fields === null) return this.stop();
      if (id === 0) this.ready = this.ready || fields[0]?.toString() === 'ready';
      this.waiting.get(id)?.(fields); // an id nobody waits for is dropped
      this.waiting.delete(id);
    }
  }

  private end(code: number | null): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this, code);
    const why = this.ready
      ? refusal(
          'unavailable',
          ErrorCode.Unavailable,
          "the sandbox's command runner ended before the command answered (was it killed?); try again",
        )
      : new NotStarted(`exit ${code}`);
    for (const answer of this.waiting.values()) answer(why);
    this.waiting.clear();
  }
}

/**
 * `sandbox_exec` through each box's exec agent: one frame on a pipe per command instead of a
 * host spawn chain (sh → nsenter → setpriv → sh → sh → timeout → sh: from the control
 * plane's large process each spawn costs more the bigger it is). A box without perl is
 * served by that chain (execInBox), and so is a request whose agent ended before it was
 * ready (it ran nothing).
 */
export class ExecAgents {
  private readonly agents = new Map<string, ExecAgent>();
  /** `<sandbox>:<box pid>` of boxes without perl. */
  private readonly chainOnly = new Set<string>();

  constructor(private readonly driver: BoxDriver) {}

  async exec(sandboxId: string, command: string, req: ExecRequest): Promise<MeasuredAnswer> {
    const chain = async () => ({
      ...(await execInBox(this.driver, sandboxId, command, req)),
      usedBytes: null,
    });
    const boxPid = this.driver.info(sandboxId)?.pid;
    if (boxPid === undefined || this.chainOnly.has(`${sandboxId}:${boxPid}`)) return chain();
    let fields: Buffer[];
    try {
      fields = await this.agent(sandboxId, boxPid).run(req, command);
    } catch (e) {
      if (e instanceof NotStarted) return chain();
      throw e;
    }
    const answer = answerOf(fields, req.timeoutSeconds);
    // Only a box's /workspace is the sandbox's workspace (a process box runs on the host).
    return this.driver.isolation === 'bubblewrap' ? answer : { ...answer, usedBytes: null };
  }

  private agent(sandboxId: string, boxPid: number): ExecAgent {
    const known = this.agents.get(sandboxId);
    if (known !== undefined && known.boxPid === boxPid && !known.ended) return known;
    known?.stop(); // an agent of a box that is gone
    const agent = new ExecAgent(this.driver, sandboxId, boxPid, (a, code) => {
      if (this.agents.get(sandboxId) === a) this.agents.delete(sandboxId);
      if (code === 127) {
        this.chainOnly.add(`${sandboxId}:${a.boxPid}`);
        logger.warn(`sandbox ${sandboxId}: no ${PERL} in the box; commands use the spawn chain`);
      }
    });
    this.agents.set(sandboxId, agent);
    return agent;
  }
}

function answerOf(fields: Buffer[], timeoutSeconds: number): MeasuredAnswer {
  const [kind, code, timedOut, truncated, used, stdout, stderr] = fields;
  if (kind?.toString() === 'error') {
    throw refusal(
      'unavailable',
      ErrorCode.Unavailable,
      `the sandbox could not start the command: ${code?.toString() ?? ''}`,
    );
  }
  const exitCode = Number(code?.toString());
  const usedBytes = Number(used?.toString());
  if (
    kind?.toString() !== 'done' ||
    fields.length !== 7 ||
    !Number.isSafeInteger(exitCode) ||
    !Number.isSafeInteger(usedBytes)
  ) {
    throw refusal(
      'unavailable',
      ErrorCode.Unavailable,
      "the sandbox's command runner answered nonsense",
    );
  }
  if (timedOut.toString() === '1') throw timeoutRefusal(timeoutSeconds);
  return {
    exit_code: exitCode,
    stdout: stdout.toString('utf8'),
    stderr: stderr.toString('utf8'),
    truncated: truncated.toString() === '1',
    usedBytes: usedBytes >= 0 ? usedBytes : null,
  };
}
