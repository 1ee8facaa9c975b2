import type { HarnessOutput } from '@sessionboxer/domain';
import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { failedTurn, OutputStream } from './outputs';

const KEY = { conversationId: 'conv-outputs-1', turn: 3 };
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));
const message = (text: string): HarnessOutput => ({ type: 'message', text });
const messages = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => message(`m${from + i}`));

function stream() {
  const sent: AgentOutputFrame[] = [];
  return { sent, output: new OutputStream(KEY, (f) => sent.push(f)) };
}

describe('OutputStream', () => {
  it('sends what arrives within one tick as one frame, on the next tick', async () => {
    const { sent, output } = stream();
    output.emit([message('a')]);
    output.emit([message('b'), message('c')]);
    expect(sent).toEqual([]);

    await nextTick();
    expect(sent).toEqual([
      { ...KEY, fromIndex: 0, outputs: [message('a'), message('b'), message('c')] },
    ]);
  });

  it('numbers the outputs of later ticks on from the earlier ones', async () => {
    const { sent, output } = stream();
    output.emit([message('a'), message('b')]);
    await nextTick();
    output.emit([message('c')]);
    await nextTick();
    output.emit([message('d'), message('e')]);
    await nextTick();

    expect(sent.map((f) => [f.fromIndex, f.outputs.length])).toEqual([
      [0, 2],
      [2, 1],
      [3, 2],
    ]);
  });

  it('sends nothing for an empty emit', async () => {
    const { sent, output } = stream();
    output.emit([]);
    await nextTick();
    output.flush();
    expect(sent).toEqual([]);
  });

  it('splits a tick of 450 outputs into frames of at most 200', async () => {
    const { sent, output } = stream();
    output.emit(messages(300));
    output.emit(messages(150, 300));
    await nextTick();

    expect(sent.map((f) => [f.fromIndex, f.outputs.length])).toEqual([
      [0, 200],
      [200, 200],
      [400, 50],
    ]);
    expect(sent.flatMap((f) => f.outputs)).toEqual(messages(450));
  });

  it('flush() sends what is pending at once, and the tick then sends nothing twice', async () => {
    const { sent, output } = stream();
    output.emit([message('a')]);
    output.flush();
    expect(sent).toEqual([{ ...KEY, fromIndex: 0, outputs: [message('a')] }]);
    await nextTick();
    expect(sent).toHaveLength(1);
  });

  it('close() sends what is pending, then drops every later output', async () => {
    const { sent, output } = stream();
    output.emit([message('before')]);
    output.close();
    expect(sent).toEqual([{ ...KEY, fromIndex: 0, outputs: [message('before')] }]);

    output.emit(failedTurn('agent_failed', 'killed'));
    await nextTick();
    output.flush();
    expect(sent).toHaveLength(1);
  });
});

describe('failedTurn', () => {
  it('is the error then a failed turn_finished with no usage', () => {
    expect(failedTurn('agent_unavailable', 'no CLI')).toEqual([
      { type: 'error', code: 'agent_unavailable', message: 'no CLI' },
      {
        type: 'turn_finished',
        status: 'failed',
        input_tokens: 0,
        output_tokens: 0,
        usage: null,
        context: null,
      },
    ]);
  });
});
