import { Injectable } from '@nestjs/common';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import {
  badArgument,
  EXEC_DEFAULT_CWD,
  EXEC_TIMEOUT_DEFAULT_SECONDS,
  FILE_MAX_BYTES,
  refusal,
  SIZE_TABLE,
} from '@sessionboxer/domain/sandbox';
import type { KeyIdentity } from '../api-keys';
import { desktopEnv } from './desktop/desktop-view';
import { ExecAgents } from './exec-agent';
import { readInBox, writeInBox, type ExecAnswer } from './sandbox-exec';
import { SandboxBoxes } from './sandbox-boxes';
import { SandboxSecrets } from './sandbox-secrets';
import { SandboxUse } from './sandbox-use';
import { Sandboxes } from './sandboxes.service';

/** Where a sandbox may write: its home and workspace (kept, forked) and its /tmp. */
const WRITABLE = ['/root/', '/workspace/', '/tmp/'];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Commands and files in a running sandbox; each one is use (for the idle timeout). */
@Injectable()
export class SandboxWork {
  private readonly agents: ExecAgents;

  constructor(
    private readonly sandboxes: Sandboxes,
    private readonly boxes: SandboxBoxes,
    private readonly secrets: SandboxSecrets,
    private readonly use: SandboxUse,
  ) {
    this.agents = new ExecAgents(boxes.driverPort);
  }

  async exec(
    caller: KeyIdentity,
    args: {
      sandbox: string;
      command: string;
      cwd?: string;
      env?: Record<string, string>;
      timeout_seconds?: number;
    },
  ): Promise<ExecAnswer> {
    for (const field of ['command', 'cwd'] as const) {
      if (args[field]?.includes('\0')) throw badArgument(field, `${field} must not contain NUL`);
    }
    const doc = await this.live(caller, args.sandbox);
    const env = args.env ?? {};
    for (const [k, v] of Object.entries(env)) {
      if (!ENV_NAME.test(k))
        throw badArgument('env', `env name ${JSON.stringify(k)} must be letters, digits and _`);
      if (/[\n\r\0]/.test(v))
        throw badArgument('env', `env.${k} must be one line (no newline or NUL)`);
    }
    const s = doc.settings!;
    const secretEnv = await this.secrets.env(doc.id, caller.orgId, s.environment, s.secrets);
    const done = this.use.begin(doc.id);
    const oomKills = () => this.boxes.driverPort.info(doc.id)?.limits?.oomKills ?? 0;
    const oomBefore = oomKills();
    try {
      const { usedBytes, ...answer } = await this.agents.exec(doc.id, args.command, {
        cwd: args.cwd ?? EXEC_DEFAULT_CWD,
        env: { HOME: '/root', ...desktopEnv(this.boxes.runDir(doc.id)), ...secretEnv, ...env },
        timeoutSeconds: args.timeout_seconds ?? EXEC_TIMEOUT_DEFAULT_SECONDS,
      });
      // The box's limits (cgroup memory, the disk quota) said in the answer when they bit.
      const oom =
        oomKills() > oomBefore
          ? `sessionboxer: a process was killed for passing the sandbox's memory (memory_gib ${SIZE_TABLE[s.size].memory_gib})`
          : null;
      for (const note of [oom, await this.boxes.overQuota(doc.id, usedBytes)]) {
        if (note) answer.stderr += `${/(^|\n)$/.test(answer.stderr) ? '' : '\n'}${note}\n`;
      }
      return this.secrets.mask(doc.id, answer);
    } finally {
      done();
    }
  }

  /** A running sandbox of the caller's, its box started again if it was lost. */
  private async live(caller: KeyIdentity, ref: string) {
    const doc = this.sandboxes.running(caller, ref);
    await this.boxes.ensureRunning(doc.id);
    return doc;
  }

  /** Not masked: a file holds what was written to it (the docs say so). */
  async readFile(caller: KeyIdentity, args: { sandbox: string; path: string }) {
    const doc = await this.live(caller, args.sandbox);
    const done = this.use.begin(doc.id);
    try {
      const bytes = await readInBox(this.boxes.driverPort, doc.id, args.path);
      const text = utf8(bytes);
      return text === null
        ? { path: args.path, encoding: 'base64', content: bytes.toString('base64') }
        : { path: args.path, encoding: 'utf-8', content: text };
    } finally {
      done();
    }
  }

  async writeFile(
    caller: KeyIdentity,
    args: { sandbox: string; path: string; content?: string; content_base64?: string },
  ) {
    if ((args.content === undefined) === (args.content_base64 === undefined)) {
      throw badArgument('content', 'pass exactly one of content and content_base64');
    }
    if (!WRITABLE.some((w) => args.path.startsWith(w))) {
      throw refusal(
        'write_refused',
        ErrorCode.Forbidden,
        `path ${args.path} is outside what a sandbox may write: under /root, /workspace or /tmp`,
        { field: 'path' },
      );
    }
    const bytes =
      args.content !== undefined ? Buffer.from(args.content, 'utf8') : base64(args.content_base64!);
    if (bytes.length > FILE_MAX_BYTES) {
      throw refusal(
        'file_too_large',
        ErrorCode.ValidationFailed,
        `the file would have ${bytes.length} bytes; sandbox_write_file writes up to ${FILE_MAX_BYTES}`,
        { field: 'content' },
      );
    }
    const doc = await this.live(caller, args.sandbox);
    const done = this.use.begin(doc.id);
    try {
      await this.boxes.assertRoom(doc.id, args.path, bytes.length);
      await writeInBox(this.boxes.driverPort, doc.id, args.path, bytes);
      return { path: args.path, size_bytes: bytes.length };
    } finally {
      done();
    }
  }
}

function utf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function base64(text: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw badArgument(
      'content_base64',
      'content_base64 must be base64 (A–Z, a–z, 0–9, +, /, = padding)',
    );
  }
  return Buffer.from(text, 'base64');
}
