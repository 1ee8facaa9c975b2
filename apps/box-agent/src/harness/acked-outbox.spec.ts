import type { AgentOutputFrame } from '@sessionboxer/mcp-adapters/bridge/protocol';
import { AckedOutbox } from './acked-outbox';
import { RecordingLog } from './test/recording-log';

const CONV = 'conv-outbox-1';
const SIZE_CAP = 50_000;

function frame(fromIndex: number, outputs = 1, turn = 1, conversationId = CONV): AgentOutputFrame {
  const one = { type: 'message', text: `from ${fromIndex}` };
  return { conversationId, turn, fromIndex, outputs: Array<typeof one>(outputs).fill(one) };
}

/** An outbox over a connection that takes `accepts` more frames, then refuses (it is down). */
function outbox() {
  const sent: AgentOutputFrame[] = [];
  const connection = { accepts: Infinity, offered: 0 };
  const log = new RecordingLog();
  const box = new AckedOutbox((event, f) => {
    expect(event).toBe('agent.output');
    connection.offered++;
    if (connection.accepts <= 0) return false;
    connection.accepts--;
    sent.push(f);
    return true;
  }, log);
  return { box, sent, connection, log };
}

const indexes = (frames: AgentOutputFrame[]) => frames.map((f) => [f.turn, f.fromIndex]);

describe('AckedOutbox', () => {
  it('sends a frame as it is added and keeps it until acknowledged', () => {
    const { box, sent } = outbox();
    box.add(frame(0));
    expect(sent).toEqual([frame(0)]);
    expect(box.size).toBe(1);
  });

  it('resends every unacknowledged frame on resend(), oldest first', () => {
    const { box, sent, connection } = outbox();
    box.add(frame(0, 2));
    connection.accepts = 0;
    box.add(frame(2, 3));
    box.add(frame(0, 1, 2));
    connection.accepts = Infinity;
    sent.length = 0;

    box.resend();
    expect(indexes(sent)).toEqual([
      [1, 0],
      [1, 2],
      [2, 0],
    ]);
    box.resend();
    expect(sent).toHaveLength(6);
  });

  it('ack removes exactly that frame: not its turn’s others, nor another turn’s same index', () => {
    const { box, sent } = outbox();
    box.add(frame(0));
    box.add(frame(1));
    box.add(frame(0, 1, 2));
    box.add(frame(0, 1, 1, 'conv-outbox-2'));
    box.ack({ conversationId: CONV, turn: 1, fromIndex: 0 });
    sent.length = 0;

    box.resend();
    expect(sent).toEqual([frame(1), frame(0, 1, 2), frame(0, 1, 1, 'conv-outbox-2')]);
    expect(box.size).toBe(3);
  });

  it('ignores an ack for a frame it does not hold, or holds no more', () => {
    const { box } = outbox();
    box.add(frame(0));
    box.ack({ conversationId: CONV, turn: 1, fromIndex: 0 });
    box.ack({ conversationId: CONV, turn: 1, fromIndex: 0 });
    box.ack({ conversationId: CONV, turn: 9, fromIndex: 5 });
    expect(box.size).toBe(0);
  });

  it('stops a resend at the first frame refused, and the next resend starts over', () => {
    const { box, sent, connection } = outbox();
    connection.accepts = 0;
    box.add(frame(0));
    box.add(frame(1));
    box.add(frame(2));
    connection.accepts = 1;
    connection.offered = 0;

    box.resend();
    expect(indexes(sent)).toEqual([[1, 0]]);
    expect(connection.offered).toBe(2);

    connection.accepts = Infinity;
    box.resend();
    expect(indexes(sent)).toEqual([
      [1, 0],
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
  });

  it(`drops the oldest frames past ${SIZE_CAP} unacknowledged outputs, and logs each drop`, () => {
    const { box, sent, log } = outbox();
    for (let i = 0; i < SIZE_CAP / 200; i++) box.add(frame(i * 200, 200));
    expect(box.size).toBe(250);
    expect(log.lines).toEqual([]);

    box.add(frame(SIZE_CAP, 200));
    expect(box.size).toBe(250);
    expect(log.of('warn')).toEqual([`dropped 200 agent outputs never acknowledged (${CONV}/1/0)`]);
    sent.length = 0;
    box.resend();
    expect(sent[0].fromIndex).toBe(200);
    expect(sent.at(-1)?.fromIndex).toBe(SIZE_CAP);
  });

  it('counts acknowledged outputs out of the cap', () => {
    const { box, log } = outbox();
    for (let i = 0; i < SIZE_CAP / 200; i++) box.add(frame(i * 200, 200));
    box.ack({ conversationId: CONV, turn: 1, fromIndex: 400 });
    box.add(frame(SIZE_CAP, 200));
    expect(box.size).toBe(250);
    expect(log.lines).toEqual([]);
  });

  it('lists each turn with unacknowledged output once, and forgets it when all is acknowledged', () => {
    const { box } = outbox();
    box.add(frame(0, 1, 1));
    box.add(frame(1, 1, 1));
    box.add(frame(0, 1, 2));
    box.add(frame(0, 1, 1, 'other-conv'));
    expect(box.turns()).toEqual([
      { conversationId: CONV, turn: 1 },
      { conversationId: CONV, turn: 2 },
      { conversationId: 'other-conv', turn: 1 },
    ]);
    box.ack({ conversationId: CONV, turn: 1, fromIndex: 0 });
    box.ack({ conversationId: CONV, turn: 1, fromIndex: 1 });
    expect(box.turns()).toEqual([
      { conversationId: CONV, turn: 2 },
      { conversationId: 'other-conv', turn: 1 },
    ]);
  });
});
