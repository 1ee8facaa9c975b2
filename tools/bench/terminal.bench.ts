/**
 * `npm run bench:terminal`: the terminal MCP against a real sshd on 127.0.0.1, through a real
 * SDK client over Streamable HTTP (OAuth as any client does it):
 * - keystroke sent → `output_available` received, over BENCH_ECHOES (1,000) echoes: p50, p99;
 * - `cat` of BENCH_MB (50) MB: MB/s into the buffer, then read back by offset (1 MiB pages);
 * - BENCH_TERMINALS (50) terminals open at once: the control plane's memory per terminal.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  outputNotice,
  statusNotice,
  type TerminalClient,
} from '../../apps/control-plane/test/terminal-mcp/mcp-client-kit';
import {
  startTerminalWorld,
  until,
  type TerminalWorld,
} from '../../apps/control-plane/test/terminal-mcp/terminal-kit';

const ECHOES = Number(process.env.BENCH_ECHOES ?? 1000);
const MB = Number(process.env.BENCH_MB ?? 50);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function open(w: TerminalWorld, c: TerminalClient, endpointId: string): Promise<string> {
  const { sessionId } = await c.call('shellwatch_create_session', { endpointId });
  await w.api.request('POST', `/api/terminals/${sessionId}/allow`);
  await c.waitFor(statusNotice(sessionId, 'open'));
  return sessionId as string;
}

/** The buffer's length: a read past the end answers where the end is. */
async function bufferEnd(c: TerminalClient, sessionId: string): Promise<number> {
  const page = await c.call('shellwatch_read_output', {
    sessionId,
    afterOffset: Number.MAX_SAFE_INTEGER,
    limit: 1,
  });
  return page.endOffset as number;
}

async function echoes(c: TerminalClient, sessionId: string): Promise<void> {
  // A quiet shell: no prompt redraws, no echo of the typed line but the PTY's own.
  await c.call('shellwatch_send_keys', { sessionId, keys: ["text:PS1=''; stty -icanon", 'enter'] });
  await new Promise((r) => setTimeout(r, 300));
  let at = await bufferEnd(c, sessionId);
  const ms: number[] = [];
  for (let i = 0; i < ECHOES; i++) {
    const seen = c.notices.length;
    const start = performance.now();
    await c.call('shellwatch_send_keys', { sessionId, keys: ['text:a'] });
    await c.waitFor((n) => c.notices.indexOf(n) >= seen && outputNotice(sessionId)(n));
    ms.push(performance.now() - start);
    at = (await c.call('shellwatch_read_output', { sessionId, afterOffset: at }))
      .endOffset as number;
  }
  ms.sort((a, b) => a - b);
  console.log(
    `keystroke → output_available over ${ECHOES} echoes: p50 ${pct(ms, 0.5).toFixed(2)} ms, p99 ${pct(ms, 0.99).toFixed(2)} ms`,
  );
  await c.call('shellwatch_send_keys', {
    sessionId,
    keys: ['ctrl:c', 'text:stty icanon', 'enter'],
  });
}

async function throughput(c: TerminalClient, sessionId: string): Promise<void> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-')), 'big.txt');
  const line = `${'x'.repeat(99)}\n`;
  fs.writeFileSync(file, line.repeat((MB * 1024 * 1024) / 100));
  await new Promise((r) => setTimeout(r, 300));
  const from = await bufferEnd(c, sessionId);
  const start = performance.now();
  await c.call('shellwatch_send_keys', { sessionId, keys: [`text:cat ${file}`, 'enter'] });
  // The PTY turns each \n into \r\n, so 50 MB of lines is a little more on the terminal.
  const want = from + MB * 1024 * 1024;
  await until(async () => (await bufferEnd(c, sessionId)) >= want, 'the cat to arrive', 600_000);
  const inMs = performance.now() - start;
  console.log(
    `cat of ${MB} MB into the buffer: ${(MB / (inMs / 1000)).toFixed(1)} MB/s (${(inMs / 1000).toFixed(2)} s)`,
  );
  const readStart = performance.now();
  let at = from;
  let bytes = 0;
  while (at < want) {
    const page = await c.call('shellwatch_read_output', {
      sessionId,
      afterOffset: at,
      limit: 1024 * 1024,
    });
    bytes += page.endOffset - page.startOffset;
    at = page.endOffset;
  }
  const readMs = performance.now() - readStart;
  console.log(
    `read back by offset (1 MiB pages): ${(bytes / 1048576 / (readMs / 1000)).toFixed(1)} MB/s`,
  );
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

async function memory(w: TerminalWorld, endpointId: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const measure = async () => {
    gc?.();
    await new Promise((r) => setTimeout(r, 200));
    gc?.();
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  const c = await w.client();
  const before = await measure();
  const rssBefore = process.memoryUsage().rss;
  const ids: string[] = [];
  for (let i = 0; i < TERMINALS; i++) ids.push(await open(w, c, endpointId));
  await new Promise((r) => setTimeout(r, 1000));
  const per = ((await measure()) - before) / TERMINALS / 1024;
  const rss = (process.memoryUsage().rss - rssBefore) / TERMINALS / 1024;
  console.log(
    `${TERMINALS} terminals open at once: ${per.toFixed(0)} KiB of JS heap + buffers each, ${rss.toFixed(0)} KiB RSS each (control plane and client in one process${gc ? '' : '; no --expose-gc'})`,
  );
  for (const sessionId of ids) await c.call('shellwatch_close_session', { sessionId });
}

async function main(): Promise<void> {
  const w = await startTerminalWorld({ SESSIONBOXER_LOG_LEVEL: 'silent' });
  try {
    const c = await w.client();
    const endpointId = await w.endpoint(c);
    // Memory first, while nothing else has been allocated and freed yet.
    await memory(w, endpointId);
    const sessionId = await open(w, c, endpointId);
    await echoes(c, sessionId);
    await throughput(c, sessionId);
    await c.call('shellwatch_close_session', { sessionId });
  } finally {
    await w.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
