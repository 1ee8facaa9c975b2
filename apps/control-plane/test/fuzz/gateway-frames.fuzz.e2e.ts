import * as fs from 'node:fs';
import fc from 'fast-check';
import { helloFrame } from '@sessionboxer/mcp-adapters';
import WebSocket from 'ws';
import { waitForBox } from '../box-kit';
import { boxSocket, head, settled, type BoxSocket, type Frame } from '../box-socket-kit';
import { startApp, type RunningApp } from '../harness';
import { script, turnFinished } from '../agent/agent-kit';
import {
  rawFrames,
  strangeEnvelopes,
  SUBSCRIBED,
  typedFrames,
  type FuzzFrame,
} from './gateway-arbitraries';

/**
 * The lasting fuzz suite of the box gateway: random and malformed frames of every type the
 * gateway subscribes to, unknown events, non-JSON, bytes, deep and large payloads, written to a
 * real box's socket of the running app. Each must be answered with why it was refused (a
 * `result` for a call, an `error` frame otherwise; only a well-formed hello has no answer),
 * must leave the event count as it was, and the server must keep answering. Seeded and bounded:
 * the same cases every run.
 */
const SEED = 20261212;
const RUNS = { typed: 300, strange: 200, raw: 120 };
const ANSWERS = ['error', 'result', 'agent.ack'];

describe('the box gateway under random and malformed frames', () => {
  let api: RunningApp;
  let id: string;
  let box: BoxSocket;
  let probes = 0;
  const tally = { cases: 0, refused: 0, accepted: 0, silent: 0 };
  const codes = new Map<string, number>();

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    id = (await api.request('POST', '/api/sessions', { title: 'Fuzzed', provider: 'scripted' }))
      .body.id;
    await waitForBox(api, id);
    // A conversation with a finished turn, so output frames meet a real one.
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ say: 'hi' }) });
    await turnFinished(api, id, 1);
    await api.request('POST', `/api/sessions/${id}/stop`, {});
    box = await boxSocket(api, id);
    await settled(api);
  }, 60_000);
  afterAll(async () => {
    await box?.close();
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
    const byCode = [...codes].map(([c, n]) => `${c} ${n}`).join(', ');
    process.stdout.write(
      `gateway fuzz: ${tally.cases} cases, ${tally.refused} refused (${byCode}), ${tally.accepted} accepted, ${tally.silent} well-formed hellos\n`,
    );
  });

  /** Sends the frame and a probe behind it; resolves with the frame's answers once both are in. */
  async function exchange(frame: FuzzFrame): Promise<Frame[]> {
    const probe = `probe-${++probes}`;
    const seen: Frame[] = [];
    const onMessage = (m: WebSocket.RawData) => {
      const f = JSON.parse((m as Buffer).toString()) as Frame;
      if (ANSWERS.includes(f.event)) seen.push(f);
    };
    box.ws.on('message', onMessage);
    if (frame.kind === 'raw')
      box.sendRaw(typeof frame.payload === 'string' ? frame.payload : Buffer.from(frame.payload));
    else box.sendRaw(JSON.stringify({ event: frame.event, data: frame.data }));
    box.send('terminal.answer', { requestId: probe, ok: true });
    const silent = frame.kind === 'frame' && isWellFormedHello(frame);
    const until = Date.now() + 10_000;
    const isProbe = (f: Frame) => f.data?.ref?.requestId === probe;
    while (!(seen.some(isProbe) && (silent || seen.some((f) => !isProbe(f))))) {
      if (box.ws.readyState !== WebSocket.OPEN) throw new Error('the gateway closed the socket');
      if (Date.now() > until) throw new Error(`no answer within 10 s: ${show(frame)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
    box.ws.off('message', onMessage);
    return seen.filter((f) => !isProbe(f));
  }

  /** The property every frame must hold. */
  async function holds(frame: FuzzFrame): Promise<void> {
    const before = await head(api);
    const answers = await exchange(frame);
    tally.cases++;
    const accepted = answers.some((a) => a.event === 'agent.ack' || a.data?.ok === true);
    if (answers.length === 0) tally.silent++;
    else if (accepted) tally.accepted++;
    for (const a of answers) expectSaysWhy(a);
    // A replayed output's ack and a read-only tool's result record nothing either.
    expect({ frame: show(frame), events: await head(api) }).toEqual({
      frame: show(frame),
      events: before,
    });
  }

  function expectSaysWhy(answer: Frame): void {
    if (answer.event === 'agent.ack' || answer.data?.ok === true) return;
    const error = answer.event === 'result' ? answer.data.error : answer.data;
    expect(typeof error?.code).toBe('string');
    expect(typeof error?.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    tally.refused++;
    codes.set(error.code as string, (codes.get(error.code as string) ?? 0) + 1);
  }

  const run = (arb: fc.Arbitrary<FuzzFrame>, numRuns: number, offset: number) =>
    fc.assert(
      fc.asyncProperty(arb, (frame) => holds(frame)),
      { seed: SEED + offset, numRuns, endOnFailure: true },
    );

  it.each(SUBSCRIBED.map((event, i) => [event, i]))(
    'refuses malformed and forged %s frames with a reason, recording nothing',
    async (event, i) => {
      await run(typedFrames(id, event), RUNS.typed, i);
    },
    60_000,
  );

  it('refuses unknown events and envelopes that are not envelopes', async () => {
    await run(strangeEnvelopes, RUNS.strange, 100);
  }, 60_000);

  it('refuses text that is not JSON, bytes, deep nesting and frames around the size limit', async () => {
    await run(rawFrames, RUNS.raw, 200);
  }, 60_000);

  it('closes only a socket that sends more than twice the size limit, and takes the next connection', async () => {
    const closed = new Promise<number>((r) => box.ws.once('close', (code) => r(code)));
    box.send('hello', { daemonVersion: 'x'.repeat(2 * 1024 * 1024 + 1) });
    expect(await closed).toBe(1009);
    box = await boxSocket(api, id);
    const answers = await exchange({ kind: 'frame', event: 'terminal.exited', data: {} });
    expect(answers[0]).toMatchObject({ event: 'error', data: { code: 'VALIDATION_FAILED' } });
    expect((await api.request('GET', '/api/health')).status).toBe(200);
  });
});

function isWellFormedHello(frame: { event: string; data: unknown }): boolean {
  return frame.event === 'hello' && helloFrame.safeParse(frame.data).success;
}

function show(frame: FuzzFrame): string {
  const text =
    frame.kind === 'raw'
      ? `${frame.what}: ${typeof frame.payload === 'string' ? frame.payload : `${frame.payload.length} bytes`}`
      : JSON.stringify({ event: frame.event, data: frame.data });
  return (text ?? 'undefined').slice(0, 300);
}
