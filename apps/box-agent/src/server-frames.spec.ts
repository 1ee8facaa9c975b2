import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { AckedOutbox } from './harness/acked-outbox';
import type { Log } from './log';
import { createServerFrameHandler, type ServerFrameDeps } from './server-frames';

/** What the daemon does with the control plane's `error` frame (a frame it did not take). */
describe("the gateway's refusals", () => {
  const warnings: string[] = [];
  const log: Log = {
    info: () => undefined,
    warn: (m: string) => warnings.push(m),
    error: (m: string) => warnings.push(m),
  };
  const frame: AgentOutputFrame = {
    conversationId: 'c1',
    turn: 2,
    fromIndex: 0,
    outputs: [{ type: 'message', text: 'late' }],
  };
  const setup = () => {
    const outputs = new AckedOutbox(() => true, log);
    outputs.add(frame);
    // Only `outputs` and `log` take part in an error frame; nothing else is reached.
    const deps = { outputs, log, reply: () => undefined } as unknown as ServerFrameDeps;
    return { outputs, handle: createServerFrameHandler(deps) };
  };
  const ref = { conversationId: 'c1', turn: 2, fromIndex: 0 };

  it('drops a refused agent.output for good, as an ack would, and logs why', () => {
    const { outputs, handle } = setup();
    handle('error', {
      code: 'INVALID_STATE',
      message: 'turn 2 has ended',
      frame: 'agent.output',
      ref,
    });
    expect(outputs.size).toBe(0);
    expect(warnings.at(-1)).toBe('the control plane refused agent.output: turn 2 has ended');
  });

  it('keeps output the refusal is not about, and any output on a refusal of another frame', () => {
    const { outputs, handle } = setup();
    handle('error', { code: 'X', message: 'no', frame: 'agent.output', ref: { ...ref, turn: 3 } });
    handle('error', { code: 'X', message: 'no', frame: 'terminal.exited', ref });
    handle('error', { code: 'VALIDATION_FAILED', message: 'not JSON' });
    expect(outputs.size).toBe(1);
  });
});
