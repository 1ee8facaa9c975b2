import type { ChildProcess } from 'node:child_process';
import {
  badArgument,
  EXEC_OUTPUT_MAX_BYTES,
  FILE_MAX_BYTES,
  refusal,
} from '@sessionboxer/domain/sandbox';
import { ErrorCode } from '@sessionboxer/domain/kernel';
import type { BoxDriver } from '../boxes';

/**
 * In the box, as root: environment lines (`NAME=value`, one a line, ended by an empty line)
 * arrive on stdin, so secrets never sit in a host process's argv; then `timeout` runs the
 * command in a process group of its own and kills the whole group past the limit (TERM, KILL
 * 2 s later). Constant script; cwd, seconds and the command line are its arguments.
 */
const EXEC_SCRIPT = [
  '[ -e /root ] || { mkdir -p /workspace/root && ln -sfn /workspace/root /root; }',
  'while IFS= read -r line; do [ -z "$line" ] && break; export "$line"; done',
  'cd -- "$1" || exit 126',
  'exec timeout -k 2 "$2" /bin/sh -c "$3" </dev/null',
].join('\n');

const WRITE_SCRIPT = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"';
const READ_SCRIPT = [
  '[ -f "$1" ] || { echo "no such file: $1" >&2; exit 3; }',
  `s=$(stat -c %s -- "$1"); [ "$s" -le ${FILE_MAX_BYTES} ] || { echo "$s" >&2; exit 4; }`,
  'exec cat -- "$1"',
].join('\n');

/** Collects a stream up to `max` bytes and drains the rest, saying whether it cut. */
function collect(stream: NodeJS.ReadableStream | null, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  stream?.on('data', (d: Buffer) => {
    if (size >= max) return void (truncated = true);
    const part = size + d.length > max ? d.subarray(0, max - size) : d;
    if (part.length < d.length) truncated = true;
    chunks.push(part);
    size += part.length;
  });
  return () => ({ bytes: Buffer.concat(chunks), truncated });
}

function finished(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : null)));
  });
}

export interface ExecAnswer {
  exit_code: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
}

/** Where, with what and for how long a command runs. */
export interface ExecRequest {
  cwd: string;
  env: Record<string, string>;
  timeoutSeconds: number;
}

export function timeoutRefusal(timeoutSeconds: number) {
  return refusal(
    'timeout',
    ErrorCode.Unavailable,
    `the command ran past timeout_seconds (${timeoutSeconds}) and was killed with its process group`,
    { timeout_seconds: timeoutSeconds },
  );
}

/**
 * sandbox_exec through the host's spawn chain (ExecAgents uses it where a box has no exec
 * agent): `sh -c` as root; a non-zero exit is an answer, running past the limit is not.
 */
export async function execInBox(
  driver: BoxDriver,
  sandboxId: string,
  command: string,
  opts: ExecRequest,
): Promise<ExecAnswer> {
  const argv = [
    '/bin/sh',
    '-c',
    EXEC_SCRIPT,
    'sandbox-exec',
    opts.cwd,
    String(opts.timeoutSeconds),
    command,
  ];
  const started = performance.now();
  const child = driver.exec(sandboxId, argv, {});
  const out = collect(child.stdout, EXEC_OUTPUT_MAX_BYTES);
  const err = collect(child.stderr, EXEC_OUTPUT_MAX_BYTES);
  // The host's own guard, should the box's `timeout` never answer.
  const guard = setTimeout(() => child.kill('SIGKILL'), (opts.timeoutSeconds + 5) * 1000);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(
    Object.entries(opts.env)
      .map(([k, v]) => `${k}=${v}\n`)
      .join('') + '\n',
  );
  const code = await finished(child).finally(() => clearTimeout(guard));
  const elapsed = performance.now() - started;
  if ((code === 124 || code === 137 || code === null) && elapsed >= opts.timeoutSeconds * 1000) {
    throw timeoutRefusal(opts.timeoutSeconds);
  }
  const o = out();
  const e = err();
  return {
    exit_code: code ?? -1,
    stdout: o.bytes.toString('utf8'),
    stderr: e.bytes.toString('utf8'),
    truncated: o.truncated || e.truncated,
  };
}

/** Writes bytes at an absolute path in the box, as its root, creating missing folders. */
export async function writeInBox(
  driver: BoxDriver,
  sandboxId: string,
  file: string,
  bytes: Buffer,
): Promise<void> {
  const child = driver.exec(sandboxId, ['/bin/sh', '-c', WRITE_SCRIPT, 'sandbox-write', file], {});
  const err = collect(child.stderr, 4096);
  child.stdout?.resume();
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(bytes);
  const code = await finished(child);
  if (code !== 0) {
    const why = err().bytes.toString('utf8').trim().split('\n').pop() ?? '';
    throw refusal(
      'write_refused',
      ErrorCode.Forbidden,
      `cannot write ${file} in the sandbox: ${why}`,
      { path: file },
    );
  }
}

/** Reads a file of the box, up to 64 MB. */
export async function readInBox(
  driver: BoxDriver,
  sandboxId: string,
  file: string,
): Promise<Buffer> {
  const child = driver.exec(sandboxId, ['/bin/sh', '-c', READ_SCRIPT, 'sandbox-read', file], {});
  child.stdin?.end();
  const out = collect(child.stdout, FILE_MAX_BYTES);
  const err = collect(child.stderr, 4096);
  const code = await finished(child);
  const why = err().bytes.toString('utf8').trim();
  if (code === 3)
    throw refusal('not_found', ErrorCode.NotFound, `${file} is not a file in the sandbox`, {
      path: file,
    });
  if (code === 4) {
    throw refusal(
      'file_too_large',
      ErrorCode.ValidationFailed,
      `${file} has ${why} bytes; sandbox_read_file reads up to ${FILE_MAX_BYTES}`,
      { path: file },
    );
  }
  if (code !== 0) throw badArgument('path', `cannot read ${file}: ${why}`);
  return out().bytes;
}
