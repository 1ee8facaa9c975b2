import type { CallFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { CallRegistry } from '../gateway/call-registry';

function registry(opts: { connected: boolean; waitMs?: number; answerTimeoutMs?: number }) {
  const sent: CallFrame[] = [];
  const state = { connected: opts.connected };
  const calls = new CallRegistry({
    waitMs: opts.waitMs ?? 5_000,
    answerTimeoutMs: opts.answerTimeoutMs ?? 5_000,
    gatewayName: '/run/test.sock',
    isConnected: () => state.connected,
    send: (frame) => (state.connected ? sent.push(frame) > 0 : false),
  });
  return { calls, sent, state };
}

const frame = (callId: string, tool = 'whoami'): CallFrame => ({
  callId,
  route: 'sessionboxer',
  tool,
  args: {},
});

describe('the call registry', () => {
  it('waits for a connection, then sends; resends after a drop; first answer wins', async () => {
    const { calls, sent, state } = registry({ connected: false });
    const answer = calls.call(frame('call-0001'));
    expect(sent).toHaveLength(0);
    state.connected = true;
    calls.connected();
    state.connected = false;
    calls.disconnected();
    state.connected = true;
    calls.connected();
    expect(sent.map((f) => f.callId)).toEqual(['call-0001', 'call-0001']);
    expect(calls.settle({ callId: 'call-0001', ok: true, result: 1 })).toBe(true);
    expect(calls.settle({ callId: 'call-0001', ok: true, result: 2 })).toBe(false);
    await expect(answer).resolves.toEqual({ callId: 'call-0001', ok: true, result: 1 });
    expect(calls.size).toBe(0);
  });

  it('says a dropped call may have taken effect, and an unsent one was not delivered', async () => {
    const { calls, state } = registry({ connected: true, waitMs: 20 });
    const sentThenDropped = calls.call(frame('call-0002', 'snapshot'));
    state.connected = false;
    calls.disconnected();
    const neverSent = calls.call(frame('call-0003', 'notify'));
    await expect(sentThenDropped).rejects.toMatchObject({
      httpStatus: 503,
      message: expect.stringMatching(/snapshot was sent, so it may or may not have taken effect/),
    });
    await expect(neverSent).rejects.toThrow(/unreachable from the box.*notify was not delivered/);
  });

  it('gives up on a call the control plane never answers', async () => {
    const { calls } = registry({ connected: true, answerTimeoutMs: 20 });
    await expect(calls.call(frame('call-0004', 'session_wait'))).rejects.toMatchObject({
      httpStatus: 504,
      code: 'UNAVAILABLE',
    });
  });
});
