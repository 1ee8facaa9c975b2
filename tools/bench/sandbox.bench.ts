/**
 * `npm run bench:sandbox`: the sandbox API over MCP (a real SDK client over Streamable HTTP,
 * real boxes): sandbox_create → first sandbox_exec answered, sandbox_exec "true" round trips,
 * a 64 MB sandbox_write_file and sandbox_read_file (MB/s), sandbox_fork of a sandbox holding
 * 100 MB of files, sandbox_stop → sandbox_resume → sandbox_exec answered, and agent_prompt of
 * a one-message turn of the scripted harness (its CLI started in the box, the turn recorded,
 * read back) answered finished. Needs bubblewrap.
 */
import {
  call,
  makeKey,
  mcpClient,
  startSandboxApp,
} from '../../apps/control-plane/test/sandbox-kit';

const N = Number(process.env.BENCH_N ?? 20);
const EXECS = Number(process.env.BENCH_EXECS ?? 500);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const ms = (label: string, xs: number[]) =>
  console.log(
    `${label}: p50 ${pct(xs, 0.5).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms (n=${xs.length})`,
  );

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await f();
  return [performance.now() - t, v];
}

async function main(): Promise<void> {
  const api = await startSandboxApp(undefined, { SESSIONBOXER_SANDBOX_SCRIPTED: 'on' });
  const client = await mcpClient(api, (await makeKey(api)).key);
  const ok = async (name: string, args: Record<string, unknown>) => {
    const r = await call(client, name, args);
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  // Made before any call: building it takes long enough for a kept-alive socket to be closed.
  const bytes = Buffer.alloc(64 * 1024 * 1024, 0xff);
  const b64 = bytes.toString('base64');
  try {
    const createToExec: number[] = [];
    for (let i = 0; i < N; i++) {
      const [t, made] = await timed(async () => {
        const s = await ok('sandbox_create', {});
        await ok('sandbox_exec', { sandbox: s.id, command: 'true' });
        return s;
      });
      createToExec.push(t);
      await ok('sandbox_destroy', { sandbox: made.id });
    }
    ms('sandbox_create → first sandbox_exec answered', createToExec);

    const box = await ok('sandbox_create', { name: 'bench' });
    for (let i = 0; i < 20; i++) await ok('sandbox_exec', { sandbox: box.id, command: 'true' });
    const execs: number[] = [];
    for (let i = 0; i < EXECS; i++)
      execs.push((await timed(() => ok('sandbox_exec', { sandbox: box.id, command: 'true' })))[0]);
    ms('sandbox_exec "true" over MCP', execs);

    const [w] = await timed(() =>
      ok('sandbox_write_file', { sandbox: box.id, path: '/root/big.bin', content_base64: b64 }),
    );
    const [r, read] = await timed(() =>
      ok('sandbox_read_file', { sandbox: box.id, path: '/root/big.bin' }),
    );
    if (Buffer.from(read.content, 'base64').length !== bytes.length)
      throw new Error('read back a different size');
    console.log(
      `64 MB write: ${(64 / (w / 1000)).toFixed(0)} MB/s (${w.toFixed(0)} ms); read: ${(64 / (r / 1000)).toFixed(0)} MB/s (${r.toFixed(0)} ms)`,
    );

    await ok('sandbox_exec', {
      sandbox: box.id,
      command:
        'mkdir -p /root/data && for i in $(seq 1 100); do head -c 1048576 /dev/urandom > /root/data/f$i; done; rm /root/big.bin',
    });
    const forks: number[] = [];
    for (let i = 0; i < Math.min(N, 10); i++) {
      const [t, fork] = await timed(() => ok('sandbox_fork', { sandbox: box.id }));
      forks.push(t);
      await ok('sandbox_destroy', { sandbox: fork.id });
    }
    ms('sandbox_fork of 100 MB of files', forks);

    const cycles: number[] = [];
    for (let i = 0; i < N; i++) {
      cycles.push(
        (
          await timed(async () => {
            await ok('sandbox_stop', { sandbox: box.id });
            await ok('sandbox_resume', { sandbox: box.id });
            await ok('sandbox_exec', { sandbox: box.id, command: 'true' });
          })
        )[0],
      );
    }
    ms('sandbox_stop → sandbox_resume → sandbox_exec answered', cycles);

    const turns: number[] = [];
    const say = JSON.stringify({ script: [{ say: 'done' }] });
    for (let i = 0; i < N; i++) {
      const [t, answer] = await timed(() =>
        ok('agent_prompt', { sandbox: box.id, harness: 'scripted', prompt: say, wait_seconds: 60 }),
      );
      if (answer.status !== 'finished') throw new Error(`turn ${JSON.stringify(answer)}`);
      turns.push(t);
    }
    ms('agent_prompt (scripted, one message) → answered finished', turns);
    await ok('sandbox_destroy', { sandbox: box.id });
  } finally {
    await client.close();
    await api.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
