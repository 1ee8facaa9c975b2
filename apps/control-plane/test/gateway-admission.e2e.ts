import * as fs from 'node:fs';
import { waitForBox } from './box-kit';
import { boxSocket, head, settled, type BoxSocket, type Frame } from './box-socket-kit';
import { startApp, type RunningApp } from './harness';
import { script, turnFinished } from './agent/agent-kit';

/**
 * Frames a daemon should never send, written straight to a real box's socket: each is refused
 * with an `error` frame that says why, and nothing is recorded. (That real daemons' frames are
 * still taken is what the Terminals and agent e2e tests show.)
 */
describe('the box gateway takes only what the daemon’s own state allows', () => {
  let api: RunningApp;
  let id: string;
  let box: BoxSocket;

  const refusal = (frame: string) => (f: Frame) => f.event === 'error' && f.data.frame === frame;
  const refusedAndNothingRecorded = async (event: string, data: unknown): Promise<any> => {
    const before = await head(api);
    const answer = box.next(refusal(event));
    box.send(event, data);
    const frame = await answer;
    expect(frame).not.toBeNull();
    expect(await head(api)).toBe(before);
    return frame?.data;
  };

  beforeAll(async () => {
    api = await startApp(undefined, { SESSIONBOXER_BOXES: 'on' });
    const created = await api.request('POST', '/api/sessions', {
      title: 'Forged frames',
      provider: 'scripted',
    });
    id = created.body.id;
    await waitForBox(api, id);
    await api.request('POST', `/api/sessions/${id}/prompts`, { text: script({ say: 'hi' }) });
    await turnFinished(api, id, 1);
    await api.request('POST', `/api/sessions/${id}/stop`, {});
    box = await boxSocket(api, id);
    await settled(api);
  });
  afterAll(async () => {
    await box?.close();
    await api?.close();
    if (api) fs.rmSync(api.dataDir, { recursive: true, force: true });
  });

  it('refuses terminal.opened and terminal.exited for a Terminal nobody asked the box to open', async () => {
    const opened = await refusedAndNothingRecorded('terminal.opened', {
      terminalId: 'ghost',
      command: ['/bin/sh'],
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(opened).toMatchObject({ code: 'NOT_FOUND', ref: { terminalId: 'ghost' } });
    expect(opened.message).toMatch(/never asked its box to open terminal ghost/);
    const exited = await refusedAndNothingRecorded('terminal.exited', {
      terminalId: 'ghost',
      exitCode: 0,
    });
    expect(exited).toMatchObject({ code: 'NOT_FOUND' });
    expect((await api.request('GET', `/api/sessions/${id}/terminals`)).body).toEqual([]);
  });

  it('refuses agent.output for a turn that is not running, and never acknowledges it', async () => {
    const acks: Frame[] = [];
    box.ws.on('message', (m) => {
      const f = JSON.parse((m as Buffer).toString()) as Frame;
      if (f.event === 'agent.ack') acks.push(f);
    });
    // Past what turn 1 recorded: a resend of a recorded (turn, index) is acknowledged, as
    // after a lost ack, and records nothing either.
    const output = (turn: number) => ({
      conversationId: id,
      turn,
      fromIndex: 5,
      outputs: [{ type: 'message', text: 'forged' }],
    });
    const ended = await refusedAndNothingRecorded('agent.output', output(1));
    expect(ended).toMatchObject({
      code: 'INVALID_STATE',
      ref: { conversationId: id, turn: 1, fromIndex: 5 },
    });
    expect(ended.message).toMatch(/output of turn 1 is not taken: turn 1 has ended/);
    const never = await refusedAndNothingRecorded('agent.output', output(7));
    expect(never.message).toMatch(/output of turn 7 is not taken/);
    const other = await refusedAndNothingRecorded('agent.output', {
      ...output(1),
      conversationId: 'someone-elses',
    });
    expect(other).toMatchObject({ code: 'FORBIDDEN' });
    expect(acks).toEqual([]);
  });

  it('refuses a terminal.answer no request waits for, and a malformed hello, naming the field', async () => {
    const answer = await refusedAndNothingRecorded('terminal.answer', {
      requestId: 'never-asked',
      ok: true,
      result: { id: 'x', text: 'forged', exitCode: 0 },
    });
    expect(answer).toMatchObject({ code: 'NOT_FOUND' });
    expect(answer.message).toMatch(/no request never-asked waits/);
    const hello = await refusedAndNothingRecorded('hello', { daemonVersion: 7 });
    expect(hello).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(hello.message).toMatch(/daemonVersion/);
  });
});
