import { ErrorCode } from '../kernel';
import { DeciderSpecification } from '../../test/decider-spec';
import { AT } from '../../test/session-fixtures';
import {
  agentErrored,
  agentMessaged,
  CID,
  decideAll,
  harnessSessionNoted,
  IDLE,
  interrupt,
  out,
  record,
  RUNNING,
  stateAfter,
  submit,
  toolCalled,
  toolReturned,
  turnEnded,
  turnFinished,
  turnStarted,
} from '../../test/conversation-fixtures';
import type { ConversationEvent, HarnessOutput } from '.';
import { conversationDecider } from './conversation.decider';

const spec = DeciderSpecification.for(conversationDecider);
const TWO = [...RUNNING, agentMessaged(1, 2, 'a'), agentMessaged(1, 3, 'b')];
const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(out.message);

describe('conversation output', () => {
  describe('running (turn 1, nothing recorded yet)', () => {
    const given = spec.given(RUNNING);

    it('records each kind of output, numbered after the prompt', () => {
      given
        .when(
          record(1, 0, [
            out.message('Reading the file'),
            out.toolCall('t1'),
            out.toolResult('t1', 'export {}', true),
            out.error('rate_limited', 'retrying in 2 s'),
            out.finished(),
          ]),
        )
        .then([
          agentMessaged(1, 2, 'Reading the file'),
          toolCalled(1, 3, 't1'),
          toolReturned(1, 4, 't1', 'export {}', true),
          agentErrored(1, 5, 'rate_limited', 'retrying in 2 s'),
          turnFinished(1, 6),
        ]);
    });

    it("notes the harness's session id without a seq, but counts it as an output", () => {
      given
        .when(record(1, 0, [out.session('h-1'), a]))
        .then([harnessSessionNoted('h-1'), agentMessaged(1, 2, 'a')]);
      const noted = [...RUNNING, harnessSessionNoted('h-1')];
      expect(stateAfter(noted)).toMatchObject({ harnessSessionId: 'h-1', seq: 1, outputs: 1 });
      spec
        .given(noted)
        .when(record(1, 0, [out.session('h-1'), a]))
        .then([agentMessaged(1, 2, 'a')]);
    });

    it("keeps the turn's cost when the CLI reports one, and leaves it out when it does not", () => {
      const priced = turnFinished(1, 2);
      given
        .when(record(1, 0, [{ ...out.finished(), cost_usd: 0.0213 } as HarnessOutput]))
        .then([{ ...priced, data: { ...priced.data, cost_usd: 0.0213 } }]);
      given.when(record(1, 0, [out.finished()])).then([turnFinished(1, 2)]);
    });

    it('keeps nothing after turn_finished in the same batch', () => {
      given
        .when(record(1, 0, [a, out.finished('failed'), b]))
        .then([agentMessaged(1, 2, 'a'), turnFinished(1, 3, 'failed')]);
    });

    it('keeps a tool_result of 65,536 characters and cuts a longer one to 65,536', () => {
      const full = '🚀'.repeat(65_536);
      given.when(record(1, 0, [out.toolResult('t', full)])).then([toolReturned(1, 2, 't', full)]);
      const cut = `${'x'.repeat(65_535)}…`;
      given
        .when(record(1, 0, [out.toolResult('t', 'x'.repeat(70_000))]))
        .then([toolReturned(1, 2, 't', cut)]);
    });

    it('cuts a runaway message and replaces a huge tool input by a note', () => {
      given
        .when(
          record(1, 0, [
            out.message('m'.repeat(262_145)),
            out.toolCall('t', { data: 'x'.repeat(70_000) }),
          ]),
        )
        .then([
          agentMessaged(1, 2, `${'m'.repeat(262_143)}…`),
          toolCalled(1, 3, 't', { truncated: 'the input was 70011 characters of JSON; not kept' }),
        ]);
    });

    it('records nothing for an empty batch, and refuses a turn that has not started', () => {
      given.when(record(1, 0, [])).thenNothing();
      given.when(record(2, 0, [a])).thenThrows(ErrorCode.InvalidState, /turn 1 is the running one/);
    });

    const bad = (value: unknown) => [value] as HarnessOutput[];
    it.each([
      ['turn 0', record(0, 0, [a]), /^turn must be between 1 and \d+ \(got 0\)$/],
      ['a negative fromIndex', record(1, -1, [a]), /fromIndex must be between 0/],
      [
        'a fractional fromIndex',
        record(1, 0.5, [a]),
        /fromIndex must be a whole number \(got 0.5\)/,
      ],
      [
        'outputs that are no list',
        record(1, 0, 'a' as unknown as HarnessOutput[]),
        /outputs must be a list/,
      ],
      ['1,001 outputs', record(1, 0, Array<HarnessOutput>(1_001).fill(a)), /at most 1000 items/],
      ['an output that is no object', record(1, 0, bad('hi')), /^outputs\[0\] must be an object$/],
      [
        'an unknown output type',
        record(1, 0, [a, ...bad({ type: 'thought' })]),
        /outputs\[1\]\.type must be one of message, tool_call, tool_result, error, turn_finished, harness_session \(got "thought"\)/,
      ],
      [
        'a message without text',
        record(1, 0, bad({ type: 'message' })),
        /^outputs\[0\]\.text must be a string$/,
      ],
      [
        'an unknown turn status',
        record(1, 0, bad({ ...out.finished(), status: 'done' })),
        /outputs\[0\]\.status must be one of finished, interrupted, failed/,
      ],
      [
        'negative tokens',
        record(1, 0, bad({ ...out.finished(), input_tokens: -1 })),
        /outputs\[0\]\.input_tokens must be between 0/,
      ],
      [
        'a negative cost',
        record(1, 0, bad({ ...out.finished(), cost_usd: -0.01 })),
        /outputs\[0\]\.cost_usd must be a number of dollars from 0/,
      ],
      [
        'a cost that is no number',
        record(1, 0, bad({ ...out.finished(), cost_usd: '0.5' })),
        /outputs\[0\]\.cost_usd must be a number of dollars/,
      ],
      [
        'a context that is no object',
        record(1, 0, bad({ ...out.finished(), context: 5 })),
        /outputs\[0\]\.context must be an object or null/,
      ],
    ])('refuses %s, naming the field', (_case, command, why) => {
      given.when(command).thenThrows(ErrorCode.ValidationFailed, why);
    });
  });

  describe('running (turn 1, outputs 0 and 1 recorded)', () => {
    const given = spec.given(TWO);

    it('records a resent batch once', () => {
      given.when(record(1, 0, [a, b])).thenNothing();
      given.when(record(1, 1, [b])).thenNothing();
      const events = decideAll(RUNNING, [record(1, 0, [a, b]), record(1, 0, [a, b])]);
      expect(events).toEqual([agentMessaged(1, 2, 'a'), agentMessaged(1, 3, 'b')]);
    });

    it('records only the new part of an overlapping batch', () => {
      given
        .when(record(1, 1, [b, c, d]))
        .then([agentMessaged(1, 4, 'c'), agentMessaged(1, 5, 'd')]);
      given.when(record(1, 2, [c])).then([agentMessaged(1, 4, 'c')]);
    });

    it('records a batch that skips outputs after saying which were lost, and numbers on from it', () => {
      const lost = (from: number, resumeAt: number): ConversationEvent => ({
        type: 'HarnessOutputsLost',
        data: { conversationId: CID, turn: 1, from, resumeAt, at: AT },
      });
      const why =
        'never reached Sessionboxer (the box was cut off for too long); what follows is kept';
      given
        .when(record(1, 3, [d]))
        .then([
          agentErrored(1, 4, 'outputs_lost', `output 2 of turn 1 ${why}`),
          lost(2, 3),
          agentMessaged(1, 5, 'd'),
        ]);
      given
        .when(record(1, 5, [d]))
        .then([
          agentErrored(1, 4, 'outputs_lost', `outputs 2–4 of turn 1 ${why}`),
          lost(2, 5),
          agentMessaged(1, 5, 'd'),
        ]);
      // After the gap, a resend of what arrived is recorded once, and the next batch follows on.
      const events = decideAll(TWO, [record(1, 3, [d]), record(1, 3, [d]), record(1, 4, [a])]);
      expect(events.filter((e) => e.type === 'AgentMessaged')).toEqual([
        agentMessaged(1, 5, 'd'),
        agentMessaged(1, 6, 'a'),
      ]);
    });
  });

  describe('idle or on a later turn', () => {
    it('refuses output that arrives after an interrupt, saying the turn ended', () => {
      spec
        .given([...RUNNING, turnEnded(1, 2, 'interrupted')])
        .when(record(1, 0, [a, out.finished()]))
        .thenThrows(ErrorCode.InvalidState, /turn 1 is not taken: turn 1 has ended and none runs/);
    });

    it('refuses output after turn_finished, even a batch that skips ahead', () => {
      const ended = spec.given([...RUNNING, agentMessaged(1, 2, 'a'), turnFinished(1, 3)]);
      ended.when(record(1, 2, [c])).thenThrows(ErrorCode.InvalidState, /has ended/);
      ended.when(record(1, 9, [c])).thenThrows(ErrorCode.InvalidState, /has ended/);
    });

    it('refuses a batch for an old turn once the next one runs, and numbers the new one from 0', () => {
      const second = spec.given([...IDLE, turnStarted(2, 3, 'p2')]);
      second
        .when(record(1, 0, [a, out.finished()]))
        .thenThrows(
          ErrorCode.InvalidState,
          /output of turn 1 is not taken: turn 2 is the running one/,
        );
      second.when(record(2, 0, [b])).then([agentMessaged(2, 4, 'b')]);
    });

    it('refuses output for a turn that never ran', () => {
      spec
        .given(RUNNING)
        .when(record(7, 0, [a]))
        .thenThrows(ErrorCode.InvalidState, /output of turn 7 is not taken/);
    });
  });

  it('numbers every spec-shaped event 1, 2, 3… across turns', () => {
    const events = decideAll(
      [],
      [
        submit('p1'),
        record(1, 0, [out.session('h-1'), a, out.finished()]),
        submit('p2'),
        record(2, 0, [out.toolCall('t1'), out.toolResult('t1', 'ok')]),
        interrupt(),
        submit('p3'),
      ],
    );
    expect(events.slice(1)).toEqual([
      turnStarted(1, 1, 'p1'),
      harnessSessionNoted('h-1'),
      agentMessaged(1, 2, 'a'),
      turnFinished(1, 3),
      turnStarted(2, 4, 'p2'),
      toolCalled(2, 5, 't1'),
      toolReturned(2, 6, 't1', 'ok'),
      turnEnded(2, 7, 'interrupted'),
      turnStarted(3, 8, 'p3'),
    ]);
    expect(stateAfter(events)).toMatchObject({
      status: 'running',
      turn: 3,
      seq: 8,
      harnessSessionId: 'h-1',
    });
  });
});
