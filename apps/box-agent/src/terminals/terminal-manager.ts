import * as pty from 'node-pty';
import { errorMessage, type Log } from '../log';
import { findExecutable } from './find-executable';
import { closeQuietly, holdSlave } from './pty-slave';
import { OutputRing } from './output-ring';
import { renderLastLines } from './terminal-text';

export interface TerminalOpened {
  terminalId: string;
  command: string[];
  createdAt: string;
}
export interface TerminalExited {
  terminalId: string;
  exitCode: number;
}
/** A batch of output: base64 of the bytes from `offset` (bytes of the Terminal's output before). */
export interface TerminalOutputBatch {
  terminalId: string;
  offset: number;
  data: string;
}
export interface TerminalEvents {
  opened(frame: TerminalOpened): void;
  exited(frame: TerminalExited): void;
  /** Optional: where the Terminal's whole output goes, in batches (the control plane's log). */
  output?(frame: TerminalOutputBatch): void;
}
export interface TerminalSummary {
  id: string;
  command: string[];
  createdAt: string;
  exitCode: number | null;
}
export interface TerminalRead {
  id: string;
  text: string;
  exitCode: number | null;
}

interface Terminal extends TerminalSummary {
  ring: OutputRing;
  pty: pty.IPty | null;
  /** Output not yet sent as a batch, the bytes sent before it, and the batch's timer. */
  pending: Buffer[];
  pendingBytes: number;
  sent: number;
  timer: NodeJS.Timeout | null;
}

export const LOGIN_SHELL = ['/bin/bash', '-l'];
/** Exited terminals kept readable; older ones are forgotten first. */
const MAX_EXITED_KEPT = 50;
const KILL_GRACE_MS = 1_000;
/** Output is sent in batches: after this long, or at this size (the control plane's limit). */
const BATCH_MS = 50;
const BATCH_BYTES = 48 * 1024;

/** The box's terminals: real PTYs whose output is retained (256 KB each) for terminal_read. */
export class TerminalManager {
  private readonly terminals = new Map<string, Terminal>();

  constructor(private readonly opts: { cwd: string; events: TerminalEvents; log: Log }) {}

  /** Idempotent: opening a known id again re-announces it instead of starting a second PTY. */
  open(terminalId: string, command: string[] | null): void {
    const known = this.terminals.get(terminalId);
    if (known) {
      this.announce(known);
      return;
    }
    const argv = command ?? LOGIN_SHELL;
    const terminal: Terminal = {
      id: terminalId,
      command: argv,
      createdAt: new Date().toISOString(),
      exitCode: null,
      ring: new OutputRing(),
      pty: null,
      pending: [],
      pendingBytes: 0,
      sent: 0,
      timer: null,
    };
    this.terminals.set(terminalId, terminal);
    this.forgetOldExited();
    this.opts.events.opened({ terminalId, command: argv, createdAt: terminal.createdAt });
    this.start(terminal);
  }

  list(): TerminalSummary[] {
    return [...this.terminals.values()].map((t) => ({
      id: t.id,
      command: t.command,
      createdAt: t.createdAt,
      exitCode: t.exitCode,
    }));
  }

  read(terminalId: string, lines: number): TerminalRead | null {
    const t = this.terminals.get(terminalId);
    if (!t) return null;
    return { id: t.id, text: renderLastLines(t.ring.text(), lines), exitCode: t.exitCode };
  }

  /**
   * Writes a person's keystrokes to a running Terminal's PTY; false (and nothing written) for
   * one this box does not know or that has exited: the control plane checks both first, so
   * this is a race with the exit.
   */
  write(terminalId: string, data: string): boolean {
    const child = this.terminals.get(terminalId)?.pty;
    if (!child) return this.skipped('input', terminalId);
    child.write(data);
    return true;
  }

  /** Resizes a running Terminal's PTY (the bounds are the frame's); false as for write. */
  resize(terminalId: string, cols: number, rows: number): boolean {
    const child = this.terminals.get(terminalId)?.pty;
    if (!child) return this.skipped('a resize', terminalId);
    try {
      child.resize(cols, rows);
    } catch (e) {
      // The PTY closed between the check and the call (the child just exited).
      this.opts.log.warn(`could not resize terminal ${terminalId}: ${errorMessage(e)}`);
      return false;
    }
    return true;
  }

  running(): string[] {
    return [...this.terminals.values()].filter((t) => t.pty).map((t) => t.id);
  }

  /** Hangs up every PTY's process group, then kills what is still there after a grace period. */
  async killAll(): Promise<void> {
    const live = [...this.terminals.values()].filter((t) => t.pty);
    for (const t of live) this.signal(t, 'SIGHUP');
    const deadline = Date.now() + KILL_GRACE_MS;
    while (live.some((t) => t.pty) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (const t of live) if (t.pty) this.signal(t, 'SIGKILL');
  }

  private start(t: Terminal): void {
    const file = findExecutable(t.command[0], this.opts.cwd);
    if (!file) {
      this.finish(t, 127, `sessionboxer: command not found: ${t.command[0]}\r\n`);
      return;
    }
    let child: pty.IPty;
    try {
      child = pty.spawn(file, t.command.slice(1), {
        name: 'xterm-256color',
        cols: 120,
        rows: 30,
        cwd: this.opts.cwd,
        env: { ...process.env, TERM: 'xterm-256color' },
      });
    } catch (e) {
      this.finish(t, 126, `sessionboxer: cannot start ${t.command[0]}: ${errorMessage(e)}\r\n`);
      return;
    }
    t.pty = child;
    const slave = holdSlave(child);
    child.onData((data) => this.output(t, data));
    child.onExit(({ exitCode, signal }) => {
      if (slave !== null) closeQuietly(slave);
      t.pty = null;
      // A shell reports death by signal N as 128 + N; so does this.
      this.finish(t, signal ? 128 + signal : exitCode, '');
    });
  }

  private finish(t: Terminal, exitCode: number, message: string): void {
    if (message) this.output(t, message);
    this.flush(t);
    t.exitCode = exitCode;
    this.opts.events.exited({ terminalId: t.id, exitCode });
  }

  private output(t: Terminal, text: string): void {
    t.ring.push(text);
    if (!this.opts.events.output) return;
    const chunk = Buffer.from(text, 'utf8');
    t.pending.push(chunk);
    t.pendingBytes += chunk.length;
    if (t.pendingBytes >= BATCH_BYTES) this.flush(t);
    else t.timer ??= setTimeout(() => this.flush(t), BATCH_MS);
  }

  /** Sends what is pending, in batches of at most BATCH_BYTES. */
  private flush(t: Terminal): void {
    if (t.timer) clearTimeout(t.timer);
    t.timer = null;
    const all = Buffer.concat(t.pending);
    t.pending = [];
    t.pendingBytes = 0;
    for (let at = 0; at < all.length; at += BATCH_BYTES) {
      const bytes = all.subarray(at, at + BATCH_BYTES);
      this.opts.events.output?.({
        terminalId: t.id,
        offset: t.sent,
        data: bytes.toString('base64'),
      });
      t.sent += bytes.length;
    }
  }

  private announce(t: Terminal): void {
    this.opts.events.opened({ terminalId: t.id, command: t.command, createdAt: t.createdAt });
    if (t.exitCode !== null) this.opts.events.exited({ terminalId: t.id, exitCode: t.exitCode });
  }

  private signal(t: Terminal, signal: NodeJS.Signals): void {
    const child = t.pty;
    if (!child) return;
    try {
      // node-pty makes the child a session leader, so its pid is also its process group.
      process.kill(-child.pid, signal);
    } catch {
      try {
        child.kill(signal);
      } catch (e) {
        this.opts.log.warn(`could not signal terminal ${t.id}: ${errorMessage(e)}`);
      }
    }
  }

  private skipped(what: string, terminalId: string): false {
    this.opts.log.warn(`ignored ${what} for terminal ${terminalId}: not running in this box`);
    return false;
  }

  private forgetOldExited(): void {
    const exited = [...this.terminals.values()].filter((t) => t.exitCode !== null);
    for (const t of exited.slice(0, Math.max(0, exited.length - MAX_EXITED_KEPT))) {
      this.terminals.delete(t.id);
    }
  }
}
