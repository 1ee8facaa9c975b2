import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters';
import { OutputBatches } from './output-batches';

const frame = (
  fromIndex: number,
  count = 1,
  turn = 1,
  conversationId = 'c1',
): AgentOutputFrame => ({
  conversationId,
  turn,
  fromIndex,
  outputs: Array.from({ length: count }, (_, i) => ({ type: 'message', text: `${fromIndex + i}` })),
});

/** A recorder whose every apply waits until the test releases it. */
function gated() {
  const applied: { sessionId: string; frame: AgentOutputFrame }[] = [];
  const gates: (() => void)[] = [];
  const batches = new OutputBatches((sessionId, f) => {
    applied.push({ sessionId, frame: f });
    return new Promise<void>((resolve) => gates.push(resolve));
  });
  const release = async () => {
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { batches, applied, release };
}

describe('OutputBatches', () => {
  it('applies a lone frame at once, and merges the contiguous frames that queued meanwhile', async () => {
    const { batches, applied, release } = gated();
    const done = [
      batches.add('s1', frame(0)),
      batches.add('s1', frame(1, 2)),
      batches.add('s1', frame(3)),
    ];
    expect(applied.map((a) => a.frame.fromIndex)).toEqual([0]);
    await release();
    expect(applied[1].frame).toEqual({ ...frame(1, 3) });
    await release();
    await expect(Promise.all(done)).resolves.toEqual([undefined, undefined, undefined]);
  });

  it('never merges across a gap, a new turn, another session or another conversation', async () => {
    const { batches, applied, release } = gated();
    void batches.add('s1', frame(0));
    void batches.add('s1', frame(1));
    void batches.add('s1', frame(5));
    void batches.add('s1', frame(0, 1, 2));
    void batches.add('s2', frame(1));
    void batches.add('s1', frame(1, 1, 1, 'c2'));
    // Other sessions' and conversations' frames run beside, not behind.
    expect(applied.map((a) => `${a.sessionId}/${a.frame.conversationId}`)).toEqual([
      's1/c1',
      's2/c1',
      's1/c2',
    ]);
    for (let i = 0; i < 8; i++) await release();
    const c1 = applied.filter((a) => a.sessionId === 's1' && a.frame.conversationId === 'c1');
    expect(c1.map((a) => [a.frame.turn, a.frame.fromIndex, a.frame.outputs.length])).toEqual([
      [1, 0, 1],
      [1, 1, 1],
      [1, 5, 1],
      [2, 0, 1],
    ]);
  });

  it('fails every frame of a batch that could not be applied, and goes on with the next', async () => {
    let calls = 0;
    const batches = new OutputBatches(() =>
      ++calls === 1 ? Promise.reject(new Error('disk full')) : Promise.resolve(),
    );
    const first = batches.add('s1', frame(0));
    const second = batches.add('s1', frame(1));
    await expect(first).rejects.toThrow('disk full');
    await expect(second).resolves.toBeUndefined();
  });
});
